import { Hono } from "hono";
import { serveStaticFiles } from "@/lib/pages/mod.ts";

/** `/static/*`: the files in `static/`, including the build in `static/build/`. */
export default function staticFiles() {
  return new Hono().use("*", serveStaticFiles());
}
