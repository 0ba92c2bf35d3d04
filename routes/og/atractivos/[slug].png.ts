import { Hono } from "hono";
import type { AppDeps } from "@/deps.ts";
import { type AppEnv, getLang } from "@/lib/http/mod.ts";
import { servePageCard } from "../_page_card.ts";

/** `<slug>.png`, the one form of this route's last segment. */
const FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.png$/;

/**
 * `/og/atractivos/<slug>.png`: an attraction's 1200x630 share card
 * (`og:image` of `/turismo/atractivos/<slug>`); 404 for a slug the data set
 * does not have. Mounted under each language's prefix
 * (`/en/og/atractivos/<slug>.png`), drawn in that language.
 */
export default function attractionCard(deps: AppDeps) {
  return new Hono<AppEnv>().get("/:file", (c) => {
    const slug = FILE.exec(c.req.param("file"))?.[1];
    return servePageCard(
      c,
      deps,
      slug ? { kind: "attraction", slug, lang: getLang(c) } : undefined,
    );
  });
}
