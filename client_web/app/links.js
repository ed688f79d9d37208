// @ts-check
// The app's own links followed in the page: a click on a link to one of its screens
// (`/play…`, a room's `/r/CODE`, a challenge's `/c/ID`) is routed as the app routes its
// own moves (`go`), so the connection stays up. A results table's replay link had loaded
// a page afresh, and the host's connection closing with the old page handed their part
// on. A click meant for a new tab or window (a modifier key, another button, a target)
// is left to the browser.

const OWN = /^\/(play\b|r\/|c\/)/;

/**
 * @param {(address: string) => void} go the app's way to a screen by its address
 */
export function followInPage(go) {
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!(link instanceof HTMLAnchorElement) || link.target || link.hasAttribute("download")) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !OWN.test(url.pathname)) return;
    if (url.pathname === location.pathname && url.search === location.search && url.hash) return; // (a hash: the browser's own)
    event.preventDefault();
    go(url.pathname + url.search + url.hash);
  });
}
