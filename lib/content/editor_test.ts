import assert from "node:assert/strict";
import { SHIPPED } from "@/tests/test_utils.ts";
import type { RawTourismData } from "@/lib/data/tourism_data.ts";
import {
  checkEditedItem,
  describeFields,
  EDITABLE_PARTS,
  findItem,
  formValue,
  inputName,
  listItemKeys,
  readItemForm,
  replaceItem,
} from "./editor.ts";
import { diffContent, summarizeChanges } from "./diff.ts";

const data = structuredClone(SHIPPED) as RawTourismData;

/** The form a browser would send for `item` untouched. */
function formOf(item: Record<string, unknown>, part: "attractions") {
  const form: Record<string, string> = {};
  for (const field of describeFields(part)) {
    form[inputName(field, "es")] = formValue(item, field, "es");
    if (field.translated) {
      form[inputName(field, "en")] = formValue(item, field, "en");
    }
  }
  return form;
}

Deno.test("editor: an attraction's fields come from the schema, never its code or slug", () => {
  const names = describeFields("attractions").map((f) => f.path.join("."));
  assert.ok(names.includes("name"));
  assert.ok(names.includes("location.lat"));
  assert.ok(names.includes("cost.notes"));
  assert.ok(!names.some((n) => /guideCode|slug|i18n/.test(n)), names.join());
  const summary = describeFields("attractions").find((f) =>
    f.path.join(".") === "summary"
  );
  assert.equal(summary?.translated, "text");
});

Deno.test("editor: a form sent back unchanged gives the item back, code included", () => {
  const { item } = findItem(data, "attractions", data.attractions[0].slug)!;
  const read = readItemForm(
    item,
    describeFields("attractions"),
    formOf(item, "attractions"),
    ["en"],
  );
  assert.deepEqual(read.problems, []);
  assert.deepEqual(read.item, item);
});

Deno.test("editor: problems by field, in Spanish, and an emptied translation dropped", () => {
  const { item, index } = findItem(
    data,
    "attractions",
    data.attractions[1].slug,
  )!;
  const form = formOf(item, "attractions");
  form["es:location.lat"] = "noventa";
  form["es:durationMinutes"] = "-5";
  form["en:summary"] = "";
  const read = readItemForm(item, describeFields("attractions"), form, ["en"]);
  assert.deepEqual(read.problems, [
    { name: "es:location.lat", message: "escribe un número" },
  ]);
  assert.equal(
    (read.item.i18n as { en: Record<string, unknown> }).en.summary,
    undefined,
  );
  const checked = checkEditedItem(
    replaceItem(data, "attractions", index, read.item),
    "attractions",
    index,
  );
  assert.ok(
    checked.byField.has("es:durationMinutes"),
    [...checked.byField.keys()].join(),
  );
});

Deno.test("diff: fields by slug, a code never shown", () => {
  const after = structuredClone(data);
  after.attractions[0].name = "Otro nombre";
  after.attractions[0].guideCode = "NEWCODE1";
  after.branding.colors.primary = "#000000";
  const changes = diffContent(data, after);
  assert.deepEqual(changes.map((c) => c.path), [
    "branding.colors.primary",
    `attractions[${data.attractions[0].slug}].name`,
    `attractions[${data.attractions[0].slug}].guideCode`,
  ]);
  const code = changes.find((c) => c.path.endsWith("guideCode"))!;
  assert.equal(code.before, "(oculto)");
  assert.equal(code.after, "(oculto)");
  assert.deepEqual(summarizeChanges(changes), [
    "branding: colors.primary",
    `attractions[${data.attractions[0].slug}]: name, guideCode`,
  ]);
});

Deno.test("editor: every item of every part comes back unchanged from its own form", () => {
  for (const part of EDITABLE_PARTS) {
    const fields = describeFields(part);
    for (const { key } of listItemKeys(data, part)) {
      const { item } = findItem(data, part, key)!;
      const form: Record<string, string> = {};
      for (const field of fields) {
        form[inputName(field, "es")] = formValue(item, field, "es");
        if (field.translated) {
          form[inputName(field, "en")] = formValue(item, field, "en");
        }
      }
      const read = readItemForm(item, fields, form, ["en"]);
      assert.deepEqual(read.problems, [], `${part} ${key}`);
      assert.deepEqual(read.item, item, `${part} ${key}`);
    }
  }
});
