/**
 * A poster's guide code (`?codigo=` of its QR link), read in the browser
 * only: the server never writes it into a page, which may be cached and
 * served to everyone.
 */

/** This tab's key for an attraction's linked code. */
function storageKey(slug: string): string {
  return `codigo:${slug}`;
}

/** `sessionStorage`, or null where the browser blocks it. */
function getStorage(): Storage | null {
  try {
    return globalThis.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * The code the poster's link brought to `slug`'s page, if any. It is taken
 * off the address (a link copied, shared or bookmarked does not carry it)
 * and kept in this tab, so the same page in another language (the language
 * switcher's link has no query of the visitor's) or a reload still has it.
 */
export function takeLinkedCode(slug: string): string | null {
  const url = new URL(location.href);
  const linked = url.searchParams.get("codigo");
  if (linked !== null) {
    url.searchParams.delete("codigo");
    history.replaceState(history.state, "", url);
  }
  const storage = getStorage();
  if (linked) storage?.setItem(storageKey(slug), linked);
  return linked || storage?.getItem(storageKey(slug)) || null;
}

/** Forgets `slug`'s linked code: its visit is registered. */
export function forgetLinkedCode(slug: string): void {
  getStorage()?.removeItem(storageKey(slug));
}
