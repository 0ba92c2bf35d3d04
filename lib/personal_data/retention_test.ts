import assert from "node:assert/strict";
import { KEY_FAMILIES, keys } from "@/lib/db/keys.ts";
import { QUESTION_RETENTION_MS } from "@/lib/db/unanswered_questions.ts";
import {
  listPersonalRecords,
  PERSONAL_RECORDS,
  renderPersonalRecordsTable,
} from "./retention.ts";

/** A markdown table's rows as trimmed cells (the formatter pads them). */
function parseTable(text: string): string[][] {
  return text.trim().split("\n")
    .filter((line) => line.startsWith("|") && !/^\|\s*-/.test(line))
    .map((line) =>
      line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim())
    );
}

Deno.test("the table of personal records", async (t) => {
  await t.step(
    "docs/PRIVACY.md's table is the one the code renders",
    async () => {
      const doc = await Deno.readTextFile(
        new URL("../../docs/PRIVACY.md", import.meta.url),
      );
      const start = doc.indexOf("<!-- personal-records:start -->");
      const end = doc.indexOf("<!-- personal-records:end -->");
      assert.ok(start > 0 && end > start, "docs/PRIVACY.md marks the table");
      assert.deepEqual(
        parseTable(doc.slice(start, end)),
        parseTable(renderPersonalRecordsTable()),
        "regenerate docs/PRIVACY.md's table from renderPersonalRecordsTable()",
      );
    },
  );

  await t.step("every KV key family it names is one of keys.ts", () => {
    const families = new Set(
      Object.values(keys).map((build) =>
        (build as (...args: string[]) => readonly unknown[])("x", "x", "x")[0]
      ),
    );
    for (const record of PERSONAL_RECORDS) {
      for (const family of record.keyFamilies) {
        assert.ok(families.has(family), `${record.id}: ${family}`);
      }
    }
  });

  await t.step(
    "every key family kept until erasure is a record of the notice",
    () => {
      const named = new Set<string>(
        PERSONAL_RECORDS.flatMap((r) => r.keyFamilies),
      );
      const missing = Object.entries(KEY_FAMILIES)
        .filter(([family, { lifetime }]) =>
          lifetime.kind === "until_erased" && !named.has(family)
        )
        .map(([family]) => family);
      assert.deepEqual(missing, [], "add them to a record of the table");
    },
  );

  await t.step(
    "a record's period on KV is its key family's lifetime or shorter",
    () => {
      for (const record of PERSONAL_RECORDS) {
        for (const { retention } of record.retention) {
          if (retention.kind !== "period" || retention.ms === null) continue;
          for (const family of record.keyFamilies) {
            const { lifetime } = KEY_FAMILIES[family];
            if (lifetime.kind !== "expires") continue;
            assert.ok(retention.ms <= lifetime.ms, `${record.id}: ${family}`);
          }
        }
      }
    },
  );

  await t.step("periods come from the constants and the setting", () => {
    const questions = PERSONAL_RECORDS.find((r) =>
      r.id === "unanswered_questions"
    )!;
    assert.deepEqual(questions.retention[0].retention, {
      kind: "period",
      amount: QUESTION_RETENTION_MS / 86_400_000,
      unit: "days",
      from: "last_question",
      ms: QUESTION_RETENTION_MS,
    });
    const visits = listPersonalRecords({ guestPassportRetentionMonths: 6 })
      .find((r) => r.id === "visits")!;
    assert.deepEqual(visits.retention[0], {
      appliesTo: "guest",
      retention: {
        kind: "period",
        amount: 6,
        unit: "months",
        from: "last_use",
        ms: null,
        setting: "GUEST_PASSPORT_RETENTION_MONTHS",
      },
    });
  });
});
