// Monaco's web worker, served from our own static files (no CDN, no blob: or data: URLs).
// The worker's base is derived from this file's own URL: static/js/bots/ → static/vendor/monaco/.
self.MonacoEnvironment = { baseUrl: new URL("../../vendor/monaco/", self.location.href).href };
importScripts(new URL("../../vendor/monaco/vs/base/worker/workerMain.js", self.location.href).href);
