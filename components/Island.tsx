import { createContext, type FunctionComponent } from "preact";
import { useContext } from "preact/hooks";

/**
 * The islands a page renders, collected while it renders, so the layout can
 * `modulepreload` their chunks (see `IslandPreloads` in `Layout.tsx`).
 */
export const IslandsOnPage = createContext<Set<string> | null>(null);

/**
 * JSON that is safe inside `<script type="application/json">`: `<`, `>`, `&`
 * and the JS line separators are written as `\u` escapes, so a value such as
 * `</script><script>…` cannot end the element early. `JSON.parse` reads the
 * escapes back as the same characters.
 */
export function serializeProps(props: unknown): string {
  return JSON.stringify(props ?? {}).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * Renders an island on the server, Fresh-style: the component's HTML inside
 * a `<div data-island="Name">` marker, followed (inside the marker) by its
 * props as JSON. The browser bundle (`lib/pages/hydrate.ts`) finds the
 * marker, reads and removes the JSON, and hydrates the component in place.
 * `name` is the island's file name in `islands/`; props must be JSON.
 */
export function Island<P extends Record<string, unknown>>(
  { name, component: Component, props }: {
    name: string;
    component: FunctionComponent<P>;
    props: P;
  },
) {
  useContext(IslandsOnPage)?.add(name);
  return (
    <div class="island" data-island={name}>
      <Component {...props} />
      <script
        type="application/json"
        data-island-props=""
        // The one raw-HTML insertion: JSON escaped by serializeProps above.
        dangerouslySetInnerHTML={{ __html: serializeProps(props) }}
      />
    </div>
  );
}
