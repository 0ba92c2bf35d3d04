import assert from "node:assert/strict";
import { getMaxTokensField } from "./model.ts";

Deno.test("getMaxTokensField sends max_completion_tokens to OpenAI only", () => {
  assert.equal(
    getMaxTokensField("https://api.openai.com/v1"),
    "max_completion_tokens",
  );
  for (
    const url of [
      "https://api.groq.com/openai/v1",
      "http://127.0.0.1:11434/v1",
      "http://localhost:8080/v1",
      "https://openrouter.ai/api/v1",
      "not a url",
    ]
  ) {
    assert.equal(getMaxTokensField(url), "max_tokens", url);
  }
});
