// @ts-check
// A replay's controls that draw or say more than a button's word: its step buttons' icons,
// and the help of its keys.

import { button, h } from "./dom.js";

// The replay's step buttons draw their own icons: the media symbols ⏮ ⏭ are missing from
// many a system's fonts (Chromium on Linux shows an empty box), an SVG path never is.
const ICONS = {
  first: "M5 4h2v16H5zM19 4v16L8 12z",
  back: "M17 4v16L6 12z",
  forward: "M7 4v16l11-8z",
  last: "M17 4h2v16h-2zM5 4v16l11-8z",
};

/** @param {keyof typeof ICONS} name */
function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]);
  svg.append(path);
  return svg;
}

/**
 * @param {keyof typeof ICONS} name
 * @param {() => void} onclick
 * @param {Record<string, string>} [attrs]
 */
export function stepButton(name, onclick, attrs = {}) {
  const node = button("", onclick, { "aria-label": name, title: name, class: "icon", ...attrs });
  node.append(icon(name));
  return node;
}

/** A replay's keys, wherever the focus is but in a field (and Space on a button presses it). */
export function replayKeysHelp() {
  return h(
    "details",
    { class: "shortcuts" },
    h("summary", {}, "Keyboard shortcuts"),
    h(
      "ul",
      {},
      [
        ["← →", "a step back, a step on"],
        ["Home, End", "the deal, the end"],
        ["Space", "play, pause"],
      ].map(([k, what]) => h("li", {}, h("kbd", {}, k), " ", what)),
    ),
  );
}
