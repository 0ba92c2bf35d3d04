/** Line icons drawn for the portal (24×24, currentColor): no icon font, no request. */
const PATHS = {
  clock: ["M12 7v5l3 2", "M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0z"],
  cash: [
    "M3 7h18v10H3z",
    "M12 14.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z",
    "M6 10v4M18 10v4",
  ],
  calendar: ["M4 6h16v14H4z", "M16 3v5M8 3v5M4 11h16"],
  pin: [
    "M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z",
    "M12 12a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z",
  ],
  access: [
    "M12 6a1.8 1.8 0 1 0 0-3.6A1.8 1.8 0 0 0 12 6z",
    "M5 8.5l7 1.5 7-1.5",
    "M12 10v4.5l-3 6.5M12 14.5l3 6.5",
  ],
  steps: ["M3 20h5v-4h4v-4h4V8h5", "M3 20h18"],
  toilet: [
    "M8 6a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM16 6a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z",
    "M6 8h4v6H9v7H7v-7H6zM14 8h4l1.5 7H18v6h-4v-6h-1.5z",
  ],
  star: [
    "M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8L3.5 9.7l5.9-.9z",
  ],
  route: [
    "M6 21a2 2 0 1 0 0-4 2 2 0 0 0 0 4zM18 7a2 2 0 1 0 0-4 2 2 0 0 0 0 4z",
    "M8 19h7.5a3.5 3.5 0 0 0 0-7h-7a3.5 3.5 0 0 1 0-7H16",
  ],
  chat: [
    "M20.5 11.5a8 8 0 0 1-11.7 7.1L4 20l1.3-4.4a8 8 0 1 1 15.2-4.1z",
    "M8.5 11.5h.01M12.5 11.5h.01M16.5 11.5h.01",
  ],
  close: ["M6 6l12 12M18 6L6 18"],
  send: ["M21 3L10 14", "M21 3l-7 18-4-7-7-4z"],
  locate: [
    "M12 19a7 7 0 1 0 0-14 7 7 0 0 0 0 14z",
    "M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
    "M12 2v3M12 19v3M2 12h3M19 12h3",
  ],
  copy: ["M9 9h11v11H9z", "M5 15H4V4h11v1"],
  external: ["M14 4h6v6M20 4l-9 9", "M18 14v6H4V6h6"],
  arrow: ["M5 12h14M13 6l6 6-6 6"],
  mountain: ["M3 20l6.5-12 4 7 2.5-4 5 9z"],
  users: [
    "M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7z",
    "M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 6.8M18 14.3a6 6 0 0 1 3.5 5.7",
  ],
  check: ["M5 12.5l4.5 4.5L19 7"],
  info: ["M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0z", "M12 11v6M12 7.5v.01"],
  phone: [
    "M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2",
  ],
  bulb: [
    "M9 18h6M10 21h4",
    "M12 3a6 6 0 0 0-3.6 10.8c.7.6 1.1 1.3 1.1 2.2h5c0-.9.4-1.6 1.1-2.2A6 6 0 0 0 12 3z",
  ],
  ticket: [
    "M3 8V6h18v2a2.5 2.5 0 0 0 0 5v5H3v-5a2.5 2.5 0 0 0 0-5z",
    "M14 6v12",
  ],
  share: [
    "M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM18 22a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
    "M8.6 13.5l6.8 4M15.4 6.5l-6.8 4",
  ],
  lock: ["M6 11h12v10H6z", "M8.5 11V8a3.5 3.5 0 0 1 7 0v3"],
  museo: [
    "M3 21h18M4 18h16M5 18v-8M9.5 18v-8M14.5 18v-8M19 18v-8",
    "M3 10l9-6 9 6z",
  ],
  naturaleza: [
    "M12 21v-7",
    "M12 14c-4 0-6.5-3-6.5-6.5C9 7.5 12 10 12 14zM12 14c4 0 6.5-3 6.5-6.5C15 7.5 12 10 12 14z",
    "M12 11c0-3 1-5.5 0-8-1 2.5 0 5 0 8z",
  ],
  historia: [
    "M6 4h11a2 2 0 0 1 2 2v13a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2z",
    "M6 4a2 2 0 0 0-2 2v2h2",
    "M10 9h6M10 13h6M10 17h4",
  ],
  gastronomia: [
    "M7 3v7a2 2 0 0 0 2 2h0a2 2 0 0 0 2-2V3M9 12v9",
    "M17 21V3c-2 1-3 4-3 8h3",
  ],
  arquitectura: [
    "M12 2v3M10.5 3.5h3",
    "M7 12a5 5 0 0 1 10 0",
    "M5 21V12h14v9",
    "M10 21v-4a2 2 0 0 1 4 0v4",
  ],
  aventura: ["M3 20l6.5-12 4 7 2.5-4 5 9z", "M9.5 8l1.5-3 1.5 3"],
  cultura: [
    "M9 18V6l11-2v12",
    "M9 18a3 3 0 1 1-6 0 3 3 0 0 1 6 0zM20 16a3 3 0 1 1-6 0 3 3 0 0 1 6 0z",
  ],
} as const;

/** The brands' own marks, filled. */
const BRANDS = {
  whatsapp:
    "M12 2a10 10 0 0 0-8.7 14.9L2 22l5.2-1.3A10 10 0 1 0 12 2zm0 1.8a8.2 8.2 0 1 1-4.3 15.2l-.3-.2-3.1.8.8-3-.2-.3A8.2 8.2 0 0 1 12 3.8zM8.6 7.2c-.2 0-.5 0-.7.3-.3.3-1 1-1 2.4s1 2.8 1.2 3c.1.2 2 3.2 5 4.4 2.5 1 3 .8 3.5.7.6 0 1.8-.7 2-1.4.3-.7.3-1.3.2-1.4l-.5-.3-1.8-.9c-.2-.1-.4-.1-.6.1l-.8 1c-.1.2-.3.2-.5.1a6.7 6.7 0 0 1-3.4-3c-.2-.4.3-.4.8-1.3 0-.2 0-.3 0-.5l-.8-2c-.2-.5-.4-.5-.6-.5z",
  facebook:
    "M14 22v-8h2.7l.4-3.2H14V8.8c0-.9.3-1.6 1.6-1.6h1.7V4.4A22 22 0 0 0 14.8 4C12.4 4 10.8 5.5 10.8 8.2v2.6H8V14h2.8v8z",
  x: "M17.8 3h3.1l-6.8 7.8L22 21h-6.2l-4.9-6.4L5.3 21H2.2l7.2-8.3L1.8 3h6.4l4.4 5.8zm-1.1 16.2h1.7L7.4 4.7H5.6z",
} as const;

export type IconName = keyof typeof PATHS;
export type BrandName = keyof typeof BRANDS;

/** A decorative line icon; give it a label only when it stands alone. */
export function Icon(
  { name, class: className, label }: {
    name: IconName;
    class?: string;
    label?: string;
  },
) {
  return (
    <svg
      class={`icon${className ? ` ${className}` : ""}`}
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      stroke-width="1.8"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden={label ? undefined : "true"}
      role={label ? "img" : undefined}
      aria-label={label}
      focusable="false"
    >
      {PATHS[name].map((d) => <path d={d} key={d} />)}
    </svg>
  );
}

/** A brand mark (WhatsApp, Facebook, X), decorative. */
export function BrandIcon({ name }: { name: BrandName }) {
  return (
    <svg
      class="icon"
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="currentColor"
      aria-hidden="true"
      focusable="false"
    >
      <path d={BRANDS[name]} />
    </svg>
  );
}
