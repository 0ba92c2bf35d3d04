import { useEffect, useState } from "preact/hooks";

/**
 * A button that copies `text` (a new guide code in the staff console) with
 * the Clipboard API and says so in a status line screen readers announce.
 * Its words come from the page (`copied`, `failed`: the console's
 * catalogue). Hidden until it runs: without JavaScript the code is on the
 * page to copy by hand, and nothing offers a dead button. When the browser refuses the clipboard, the status says to copy
 * it by hand.
 */
export default function CopyButton(
  { text, label, copied, failed }: {
    text: string;
    label: string;
    /** What the status says once copied. */
    copied: string;
    /** What it says when the browser refuses the clipboard. */
    failed: string;
  },
) {
  const [ready, setReady] = useState(false);
  const [status, setStatus] = useState("");
  useEffect(() => setReady(true), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setStatus(copied);
    } catch {
      setStatus(failed);
    }
  }

  return (
    <div class="copy-button" hidden={!ready}>
      <button type="button" class="button" onClick={copy}>{label}</button>
      <p class="copy-button__status" role="status">{status}</p>
    </div>
  );
}
