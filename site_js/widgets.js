/*
 * dcglab: draw a page's explorers from the widget state saved in the notebook, with no
 * kernel. Loaded with `defer` by the pages that carry widget state, and only by them
 * (nb_ipywidgets_js in _config.yml; scripts/dcglab_site.py checks that every view on
 * such a page is an anywidget).
 *
 * Each explorer is an anywidget: its saved state holds its ES module (_esm), its CSS
 * (_css) and its traits. This file does for those what html-manager and anywidget's
 * front end do in a notebook, and no more: the CSS goes into one <style> per widget
 * class, the module is imported from a blob URL, and its default export's
 * initialize({model}) and render({model, el}) run against a model over the saved
 * traits. The model is anywidget's model interface (get, set, on, off, save_changes,
 * send) with Backbone's events: set() fires "change:<trait>" for each trait whose value
 * changed, then "change". With no kernel, save_changes() and send() have no one to
 * talk to. Views of one model share it, as in a notebook.
 *
 * Like html-manager, each view is drawn into a <div class="widget-subarea"> put just
 * before its <script type="application/vnd.jupyter.widget-view+json">. Views are drawn
 * one task after another, so that the page stays responsive while they start.
 */
(function () {
  "use strict";
  var STATE = 'script[type="application/vnd.jupyter.widget-state+json"]';
  var VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]';

  function same(a, b) {
    return a === b || JSON.stringify(a) === JSON.stringify(b);
  }

  function savedModel(traits) {
    var values = Object.assign({}, traits);
    var handlers = {};
    var emit = function (event, args) {
      (handlers[event] || []).slice().forEach(function (f) { f.apply(null, args); });
    };
    var model = {
      get: function (name) { return values[name]; },
      set: function (name, value) {
        var changes = typeof name === "object" ? name : { [name]: value };
        var changed = Object.keys(changes).filter(function (k) { return !same(values[k], changes[k]); });
        changed.forEach(function (k) { values[k] = changes[k]; });
        changed.forEach(function (k) { emit("change:" + k, [model, values[k]]); });
        if (changed.length) emit("change", [model]);
      },
      save_changes: function () {},
      send: function () {},
      on: function (events, f) {
        events.split(/\s+/).forEach(function (e) { (handlers[e] = handlers[e] || []).push(f); });
      },
      off: function (events, f) {
        (events ? events.split(/\s+/) : Object.keys(handlers)).forEach(function (e) {
          handlers[e] = f ? (handlers[e] || []).filter(function (g) { return g !== f; }) : [];
        });
      },
      widget_manager: null,
    };
    return model;
  }

  function addCss(css, id) {
    if (!css || document.querySelector('style[data-anywidget="' + CSS.escape(id) + '"]')) return;
    var style = document.createElement("style");
    style.setAttribute("data-anywidget", id);
    style.textContent = css;
    document.head.appendChild(style);
  }

  async function loadWidget(esm) {
    var url = URL.createObjectURL(new Blob([esm], { type: "text/javascript" }));
    try {
      var mod = await import(url);
      var def = mod.default;
      return typeof def === "function" ? await def() : def;
    } finally {
      URL.revokeObjectURL(url);
    }
  }

  var started = {}; // model id -> Promise of {model, widget}

  function start(id, saved) {
    if (!started[id]) {
      started[id] = (async function () {
        var traits = saved.state;
        addCss(traits._css, traits._anywidget_id || id);
        var widget = await loadWidget(traits._esm);
        var model = savedModel(traits);
        if (widget.initialize) await widget.initialize({ model: model, experimental: {} });
        return { model: model, widget: widget };
      })();
    }
    return started[id];
  }

  async function drawView(script, models) {
    var id = JSON.parse(script.textContent).model_id;
    var saved = models[id];
    var area = document.createElement("div");
    area.className = "widget-subarea";
    script.parentNode.insertBefore(area, script);
    if (!saved || saved.model_module !== "anywidget") {
      throw new Error("dcglab widgets.js: no saved anywidget state for view " + id);
    }
    var live = await start(id, saved);
    var el = document.createElement("div");
    area.appendChild(el);
    await live.widget.render({ model: live.model, el: el, experimental: {} });
  }

  async function drawAll() {
    var state = document.querySelector(STATE);
    if (!state) return;
    var models = JSON.parse(state.textContent).state;
    var views = Array.prototype.slice.call(document.querySelectorAll(VIEW));
    for (var i = 0; i < views.length; i++) {
      await new Promise(function (r) { setTimeout(r, 0); }); // one task per view
      try {
        await drawView(views[i], models);
      } catch (err) {
        console.error(err);
      }
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", drawAll);
  else drawAll();
})();
