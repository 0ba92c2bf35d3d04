import type { JsonLdDocument } from "@/lib/pages/mod.ts";
import { serializeProps } from "./Island.tsx";

/**
 * A page's schema.org description (lib/pages/json_ld.ts) as a JSON-LD data
 * block. A data block is never run, so the CSP has nothing to allow; its
 * JSON is escaped as the islands' props are (`<` as `\u003c`), so a value
 * such as `</script><script>…` stays inside it.
 */
export function JsonLd({ data }: { data: JsonLdDocument }) {
  return (
    <script
      type="application/ld+json"
      // Raw HTML, but JSON escaped by serializeProps: nothing can end the element.
      dangerouslySetInnerHTML={{ __html: serializeProps(data) }}
    />
  );
}
