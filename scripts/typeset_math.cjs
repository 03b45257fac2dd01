// Typeset TeX to SVG when the book is built, so that no page runs MathJax.
//
//   node scripts/typeset_math.cjs < pages.json > svgs.json
//   node scripts/typeset_math.cjs --css > math.css
//
// Input: a JSON list of pages, each a list of formulas {"tex": "...", "display": true|false}.
// Output: a JSON list, one entry per page, {"defs": "<svg ...>", "items": [...]}, with
// items in the input's order, each {"html": "<mjx-container ...>", "error": "..." or null}:
// MathJax 3's SVG output (each glyph a path, no font to load) with the formula's MathML
// hidden beside it for screen readers (MathJax's assistive-mml), as MathJax's
// tex-mml-chtml drew them in the reader's browser. A page's glyphs are defined once, in
// its hidden "defs" <svg>, and its formulas use them. With --css, the stylesheet the SVG
// output needs. Called by scripts/dcglab_site.py (mathjax-full is pinned in package.json).
"use strict";
const fs = require("fs");
const { mathjax } = require("mathjax-full/js/mathjax.js");
const { TeX } = require("mathjax-full/js/input/tex.js");
const { SVG } = require("mathjax-full/js/output/svg.js");
const { liteAdaptor } = require("mathjax-full/js/adaptors/liteAdaptor.js");
const { RegisterHTMLHandler } = require("mathjax-full/js/handlers/html.js");
const { AssistiveMmlHandler } = require("mathjax-full/js/a11y/assistive-mml.js");
const { AllPackages } = require("mathjax-full/js/input/tex/AllPackages.js");

const adaptor = liteAdaptor();
AssistiveMmlHandler(RegisterHTMLHandler(adaptor));
// without noerrors and noundefined, a TeX error or an unknown macro is an error (reported)
const SKIP = ["bussproofs", "noerrors", "noundefined"];
const tex = new TeX({ packages: AllPackages.filter((p) => !SKIP.includes(p)) });
const svg = new SVG({ fontCache: "global" });
const doc = mathjax.document("", { InputJax: tex, OutputJax: svg });

if (process.argv.includes("--css")) {
  process.stdout.write(adaptor.textContent(svg.styleSheet(doc)) + "\n");
} else {
  const pages = JSON.parse(fs.readFileSync(0, "utf8"));
  const out = pages.map((formulas) => {
    svg.fontCache.clearCache();
    const items = formulas.map(({ tex: source, display }) => {
      const html = adaptor.outerHTML(doc.convert(source, { display }));
      const err = html.match(/data-mjx-error="([^"]*)"/);
      return { html, error: err ? err[1] : null };
    });
    const defs = adaptor.outerHTML(svg.fontCache.getCache());
    return {
      defs: `<svg id="MJX-SVG-global-cache" style="display: none" aria-hidden="true">${defs}</svg>`,
      items,
    };
  });
  process.stdout.write(JSON.stringify(out));
}
