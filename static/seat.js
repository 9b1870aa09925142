/* The seat page must never be shown as it was: a page kept in the back-forward cache still holds an
   old question and its old pick, one click away from being sent. Coming back to it loads the table
   as it is now (the page is a GET, so reloading it changes nothing). */
window.addEventListener("pageshow", function (event) {
  "use strict";
  if (event.persisted) window.location.reload();
});
