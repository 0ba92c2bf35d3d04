import { useEffect, useState } from "preact/hooks";

/**
 * A button that copies `text` (a new guide code in the staff console) with
 * the Clipboard API and says so in a status line screen readers announce.
 * Spanish only, like the console. Hidden until it runs: without JavaScript
 * the code is on the page to copy by hand, and nothing offers a dead
 * button. When the browser refuses the clipboard, the status says to copy
 * it by hand.
 */
export default function CopyButton(
  { text, label }: { text: string; label: string },
) {
  const [ready, setReady] = useState(false);
  const [status, setStatus] = useState("");
  useEffect(() => setReady(true), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setStatus("Copiado");
    } catch {
      setStatus("No se pudo copiar: selecciónalo y cópialo a mano.");
    }
  }

  return (
    <div class="copy-button" hidden={!ready}>
      <button type="button" class="button" onClick={copy}>{label}</button>
      <p class="copy-button__status" role="status">{status}</p>
    </div>
  );
}
