/*
 * dcglab: tell RequireJS where the vendored widget front ends live.
 *
 * Loaded by every page that carries widget state, after require.js and
 * before embed-amd.js (see nb_ipywidgets_js in _config.yml). Paths are
 * computed from this script's own URL, so pages in sub-folders
 * (chapters/xx.html) resolve them correctly. RequireJS appends ".js".
 * Copied into the site by scripts/vendor_assets.py, which rewrites the
 * HTML_MANAGER_DIST line to the CDN URL in CDN-fallback mode.
 */
(function () {
  "use strict";
  var here = document.currentScript && document.currentScript.src;
  if (!here || typeof window.require === "undefined") {
    return;
  }
  var HTML_MANAGER_DIST = "html-manager/"; // relative to this script, or absolute
  var dist = new URL(HTML_MANAGER_DIST, here).href.replace(/\/$/, "");
  window.require.config({
    paths: {
      // anywidget's AMD front end, copied from the installed anywidget wheel.
      anywidget: new URL("anywidget/index", here).href,
      // embed-amd.js defines "@jupyter-widgets/html-manager/dist/libembed-amd"
      // and finds its font files next to that module's URL; without this the
      // URL is taken relative to the page (chapters/@jupyter-widgets/...).
      "@jupyter-widgets/html-manager/dist": dist,
    },
  });
  window.__jupyter_widgets_assets_path__ = dist + "/";
})();
