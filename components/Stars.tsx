import { Icon } from "./Icon.tsx";

/**
 * Five stars filled to the nearest whole `value`. Decorative: every caller
 * says the rating in words next to it.
 */
export function Stars({ value }: { value: number }) {
  const filled = Math.round(value);
  return (
    <span class="stars" aria-hidden="true">
      {[1, 2, 3, 4, 5].map((n) => (
        <Icon
          name="star"
          class={n <= filled ? "star star--on" : "star"}
          key={n}
        />
      ))}
    </span>
  );
}
