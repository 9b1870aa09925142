/* "Notify me on this device": registers the service worker (scope "/"), asks permission, subscribes
   with the service's public VAPID key and posts the subscription; "Turn off on this device" lets it
   go and tells the server. Where push cannot work, says so instead of offering a button. What it says
   comes from the page, in the reader's language (the box's data-say-* attributes); the English here is
   only a fallback. */
"use strict";
(function () {
  const boxes = document.querySelectorAll("[data-push]");
  if (!boxes.length) return;

  function keyBytes(b64url) {
    const text = (b64url + "=".repeat((4 - (b64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(text);
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  const ENGLISH = {
    unsupported: "Notifications cannot work in this browser (it has no web push, or the page is not on https).",
    blocked: "Notifications are blocked for this site: allow them in this browser's settings, then try again.",
    noAnswer: "The server did not answer; try again.",
    onFailed: "This browser would not turn notifications on (%(error)s).",
    offFailed: "This browser would not turn notifications off (%(error)s).",
    notOn: "This device was not being notified.",
    error: "error",
  };
  // the box's words, by name (data-say-no-answer is "noAnswer"), with %(name)s placeholders filled in
  function say(box, name, values) {
    const key = "say" + name.charAt(0).toUpperCase() + name.slice(1);
    let text = box.dataset[key] || ENGLISH[name];
    Object.keys(values || {}).forEach((k) => { text = text.split("%(" + k + ")s").join(values[k]); });
    return text;
  }

  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window
    && window.isSecureContext;

  async function registration() {
    const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    return reg;
  }

  async function post(url, box, sub) {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": box.dataset.csrf },
      body: JSON.stringify(sub),
    });
    let said = {};
    try { said = await response.json(); } catch (e) { said = {}; }
    return { ok: response.ok && said.ok, message: said.message || say(box, "noAnswer") };
  }

  function setup(box) {
    const on = box.querySelector("[data-push-subscribe]");
    const off = box.querySelector("[data-push-unsubscribe]");
    const status = box.querySelector("[data-push-status]");
    // a button's own display (site.css's .button) would beat the hidden attribute: set both
    const shown = (el, yes) => { el.hidden = !yes; el.style.display = yes ? "" : "none"; };
    box.hidden = false;
    if (!supported) {
      shown(on, false);
      shown(off, false);
      status.textContent = say(box, "unsupported");
      return;
    }
    const show = (subscribed) => { shown(on, !subscribed); shown(off, subscribed); };
    navigator.serviceWorker.getRegistration("/").then(async (reg) => {
      const sub = reg && (await reg.pushManager.getSubscription());
      show(Boolean(sub) && Notification.permission === "granted");
    }).catch(() => show(false));

    on.addEventListener("click", async () => {
      on.disabled = true;
      try {
        const reg = await registration();
        const permission = await Notification.requestPermission();
        if (permission !== "granted") {
          status.textContent = say(box, "blocked");
          return;
        }
        const sub = (await reg.pushManager.getSubscription()) || (await reg.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(box.dataset.pushKey),
        }));
        const said = await post(box.dataset.pushOn, box, sub.toJSON ? sub.toJSON() : sub);
        status.textContent = said.message;
        show(said.ok);
      } catch (e) {
        status.textContent = say(box, "onFailed", { error: e && e.name ? e.name : say(box, "error") });
      } finally {
        on.disabled = false;
      }
    });

    off.addEventListener("click", async () => {
      off.disabled = true;
      try {
        const reg = await navigator.serviceWorker.getRegistration("/");
        const sub = reg && (await reg.pushManager.getSubscription());
        if (!sub) { show(false); status.textContent = say(box, "notOn"); return; }
        const json = sub.toJSON ? sub.toJSON() : sub;
        await sub.unsubscribe();
        const said = await post(box.dataset.pushOff, box, json);
        status.textContent = said.message;
        show(false);
      } catch (e) {
        status.textContent = say(box, "offFailed", { error: e && e.name ? e.name : say(box, "error") });
      } finally {
        off.disabled = false;
      }
    });
  }

  boxes.forEach(setup);
})();
