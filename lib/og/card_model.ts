/**
 * The card view's model (see card_view.tsx) from an untrusted
 * {@linkcode ShareCard}: counts clamped, text cleaned of what no font can
 * draw, badge emoji that twemoji has, the palette, and the operator's logo as
 * a PNG.
 */
import { Resvg } from "@resvg/resvg-wasm";
import type { PageCard, ShareCard, ShareCardBranding } from "./card_types.ts";
import { type CardModel, type Logo, LOGO_SIZE } from "./card_view.tsx";
import type { PageCardModel } from "./page_card_view.tsx";
import { hasTwemoji } from "./emoji.ts";
import { hasGlyph, isZeroWidth } from "./fonts.ts";
import { cardPalette } from "./palette.ts";
import { initResvg } from "./resvg.ts";
import { cleanText, graphemes } from "@/lib/text/clean.ts";
import { firstEmoji, isEmoji, MAX_NAME_GRAPHEMES } from "./text.ts";
import { LRUCache } from "lru-cache";
import {
  DEFAULT_LANG,
  getLangMeta,
  isLang,
  type MessageValues,
  t,
} from "@/lib/i18n/catalogue.ts";

/** Badge emoji shown on the card; more are summarised as "+N". */
const MAX_BADGE_ICONS = 6;

/**
 * The model of `card`. Async because fallback fonts and twemoji files are
 * loaded on demand to decide what can be drawn.
 */
export async function cardModel(card: ShareCard): Promise<CardModel> {
  await initResvg(); // the logo is rasterised with resvg
  const total = toCount(card?.totalAttractions);
  const visits = Math.min(toCount(card?.visitCount), total);
  // Floored like the route page: 100% only when every attraction is visited.
  const percent = total > 0 ? Math.floor((visits / total) * 100) : 0;
  const badges = Array.isArray(card?.badges) ? card.badges : [];
  const icons: string[] = [];
  for (const badge of badges) {
    if (icons.length >= MAX_BADGE_ICONS) break;
    const icon = firstEmoji(badge?.icon);
    if (icon && await hasTwemoji(icon)) icons.push(icon);
  }
  const branding = card?.branding ?? ({} as Partial<ShareCardBranding>);
  const lang = isLang(card?.lang) ? card.lang : DEFAULT_LANG;
  const locale = getLangMeta(lang).intlLocale;
  const say = (key: string, values?: MessageValues) =>
    t(lang, `card.${key}`, values);
  const left = Math.max(total - visits, 0);
  return {
    name: (await renderable(cleanText(card?.name, MAX_NAME_GRAPHEMES))) ||
      say("defaultName"),
    visits,
    total,
    percent,
    badgeIcons: icons,
    badgeCount: badges.length,
    brandName: (await renderable(cleanText(branding.name, 60))) ||
      say("defaultBrand"),
    tagline: await renderable(cleanText(branding.tagline, 90)),
    logo: logoImage(branding.logoSvg),
    colors: cardPalette(branding.colors),
    locale,
    labels: {
      pill: say("pill").toLocaleUpperCase(locale),
      traveler: say("traveler"),
      placesVisited: say("placesVisited"),
      ofTotal: say("ofTotal", { total }),
      badgesEarned: say("badgesEarned", { count: badges.length }),
      firstBadge: say("firstBadge"),
      progress: say("progress"),
      remaining: total === 0
        ? say("routeStarting")
        : left === 0
        ? say("routeDone")
        : say("placesLeft", { left }),
      cta: say("cta"),
      ctaNote: say("ctaNote"),
    },
  };
}

/** Facts shown as chips on a page's card. */
const MAX_FACTS = 3;

/**
 * The model of a page's card (page_card_view.tsx): the operator's text,
 * cleaned and cut to what the layout has room for, like a route card's.
 */
export async function pageCardModel(card: PageCard): Promise<PageCardModel> {
  await initResvg(); // the logo is rasterised with resvg
  const branding = card?.branding ?? ({} as Partial<ShareCardBranding>);
  const clean = (value: unknown, max: number) =>
    renderable(cleanText(value, max));
  const facts: string[] = [];
  for (const fact of Array.isArray(card?.facts) ? card.facts : []) {
    if (facts.length >= MAX_FACTS) break;
    const text = await clean(fact, 32);
    if (text) facts.push(text);
  }
  return {
    pill: await clean(card?.pill, 28),
    headerNote: await clean(card?.headerNote, 90),
    eyebrow: await clean(card?.eyebrow, 70),
    title: (await clean(card?.title, MAX_NAME_GRAPHEMES)) ||
      (await clean(branding.name, 60)) ||
      t(pageLang(card), "card.defaultBrand"),
    text: await clean(card?.text, 170),
    facts,
    cta: await clean(card?.cta, 48),
    ctaNote: await clean(card?.ctaNote, 90),
    brandName: (await clean(branding.name, 60)) ||
      t(pageLang(card), "card.defaultBrand"),
    logo: logoImage(branding.logoSvg),
    colors: cardPalette(branding.colors),
    photo: cardPhoto(card?.photo?.dataUri),
  };
}

/** A photo as share_cards.ts gives it (a JPEG data URI), or `null`: nothing else is drawn. */
function cardPhoto(dataUri: unknown): string | null {
  return typeof dataUri === "string" &&
      /^data:image\/jpeg;base64,[A-Za-z0-9+/]+={0,2}$/.test(dataUri)
    ? dataUri
    : null;
}

/** A page card's language (absent or unknown: Spanish). */
function pageLang(card: PageCard): string {
  return isLang(card?.lang) ? card.lang : DEFAULT_LANG;
}

function toCount(value: unknown, max = 9999): number {
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(n) || n < 0) return 0;
  return Math.min(Math.floor(n), max);
}

/**
 * Drop what no font or twemoji file can draw (Hangul, Thai, Hebrew, emoji
 * newer than twemoji 15, ...) so the card never shows "missing glyph" boxes.
 */
async function renderable(text: string): Promise<string> {
  if (!/[^ -\u024F]/.test(text)) return text; // fast path: latin
  const out: string[] = [];
  for (const g of graphemes(text)) {
    const cps = [...g].map((ch) => ch.codePointAt(0)!);
    if (cps.every((cp) => hasGlyph(cp) || isZeroWidth(cp))) {
      out.push(g);
    } else if (isEmoji(g)) {
      if (await hasTwemoji(g)) out.push(g);
    } else {
      out.push(
        [...g].filter((ch) => {
          const cp = ch.codePointAt(0)!;
          return hasGlyph(cp) || isZeroWidth(cp);
        }).join(""),
      );
    }
  }
  return out.join("").replace(/ {2,}/g, " ").trim();
}

/** Rasterised logos by markup; `null` for markup that is not a usable SVG. */
const logoCache = new LRUCache<string, { logo: Logo | null }>({ max: 16 });

/**
 * The operator's SVG logo, rasterised once (per markup) to a PNG at its exact
 * display size. Embedding it as an SVG image would make resvg spin up a
 * nested parser on every render (~50 ms), and inlining operator markup could
 * leak its <style> rules into the card. Invalid markup yields no logo.
 */
function logoImage(svg: unknown): Logo | null {
  if (typeof svg !== "string" || !svg.trim() || svg.length > 500_000) {
    return null;
  }
  const cached = logoCache.get(svg);
  if (cached) return cached.logo;
  let logo: Logo | null = null;
  try {
    const probe = new Resvg(svg, { font: { loadSystemFonts: false } });
    const wide = probe.width >= probe.height;
    probe.free();
    const resvg = new Resvg(svg, {
      font: { loadSystemFonts: false },
      fitTo: { mode: wide ? "width" : "height", value: LOGO_SIZE },
    });
    const image = resvg.render();
    logo = {
      src: `data:image/png;base64,${bytesToBase64(image.asPng())}`,
      width: image.width,
      height: image.height,
    };
    image.free();
    resvg.free();
  } catch {
    logo = null;
  }
  logoCache.set(svg, { logo });
  return logo;
}

function bytesToBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}
