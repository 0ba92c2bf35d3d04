import { Hono } from "hono";
import type { AppDeps } from "@/deps.ts";
import { type AppEnv, getLang } from "@/lib/http/mod.ts";
import { servePageCard } from "./_page_card.ts";

/**
 * `/og/inicio.png`: the home page's 1200x630 share card (`og:image` of
 * `/`); mounted under each language's prefix (`/en/og/inicio.png`), drawn
 * in that language.
 */
export default function homeCard(deps: AppDeps) {
  return new Hono<AppEnv>().get(
    "/",
    (c) => servePageCard(c, deps, { kind: "home", lang: getLang(c) }),
  );
}
