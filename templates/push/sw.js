{% load static i18n %}{% translate "Café turns" as brand %}/* Café turns' service worker: shows pushes, opens the seat a tap asks for, and keeps only
   public files (styles, scripts, icons, the offline page): never a seat page, a profile, or any
   answer that depends on who asks. */
"use strict";

const CACHE = "cafe-turns-public-{{ version }}";
const OFFLINE = "{% url 'offline' %}";
const STATIC_PREFIX = "{% get_static_prefix %}";
const KEEP = [OFFLINE, "{% static 'site.css' %}", "{% static 'icons/icon-192.png' %}"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(KEEP)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

function isPublicFile(url) {
  return url.origin === self.location.origin && url.pathname.startsWith(STATIC_PREFIX);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (isPublicFile(url)) {
    // a static file is the same for everyone: from the cache, else the network (and kept)
    event.respondWith(
      caches.match(request).then((hit) => hit || fetch(request).then((response) => {
        if (response.ok && response.type === "basic") {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      }))
    );
  } else if (request.mode === "navigate") {
    // pages always come from the server, never from a cache; only a failed network shows OFFLINE
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  }
});

function sameSite(raw) {
  try {
    // only ever this site: a ping's link keeps its path, on this site's own origin
    const url = new URL(raw || "/", self.location.origin);
    return new URL(url.pathname + url.search + url.hash, self.location.origin).href;
  } catch (e) {
    return new URL("/", self.location.origin).href;
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = data.title || "{{ brand|escapejs }}";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    icon: data.icon || "{% static 'icons/icon-192.png' %}",
    badge: "{% static 'icons/icon-192.png' %}",
    tag: data.tag || undefined,
    renotify: Boolean(data.tag),
    data: { url: sameSite(data.url) },
  }));
});

// a tap opens the ping's page on this site, or focuses a window already showing it
async function openSeat(url) {
  const target = sameSite(url);
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((w) => w.url.split("#")[0] === target.split("#")[0]);
  if (open) return open.focus();
  return self.clients.openWindow(target);
}
self.openSeat = openSeat;

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openSeat(event.notification.data && event.notification.data.url));
});
