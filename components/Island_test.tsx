import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { Island, serializeProps } from "./Island.tsx";

function Greeting({ name }: { name: string }) {
  return <p>Hola, {name}</p>;
}

Deno.test("serializeProps", async (t) => {
  await t.step(
    "writes <, >, & and line separators as escapes that parse back",
    () => {
      const props = {
        name: "</script><script>alert(1)</script> & \u2028\u2029",
      };
      const json = serializeProps(props);
      assert.doesNotMatch(json, /[<>&\u2028\u2029]/);
      assert.deepEqual(JSON.parse(json), props);
    },
  );
});

Deno.test("Island", async (t) => {
  await t.step(
    "renders the component inside its marker with escaped props",
    () => {
      const html = renderToString(
        <Island
          name="Greeting"
          component={Greeting}
          props={{ name: "</script>" }}
        />,
      );
      assert.equal(
        html,
        '<div class="island" data-island="Greeting"><p>Hola, &lt;/script></p>' +
          '<script type="application/json" data-island-props>{"name":"\\u003c/script\\u003e"}</script></div>',
      );
    },
  );
});
