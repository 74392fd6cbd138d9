/**
 * What the alias editor says after a save about the window it set, where that window is beyond what the model was
 * trained for. Found in round 10: an alias on plain.gguf (trained for 4,096 tokens, as its GGUF says) saved with
 * 200,000 was loaded with a 200,000-token context (446 MiB held for a 2.5 MiB model), and nothing said so.
 */
/** Exact, as the user typed it: 200,000 read as "195K" beside the number just entered. */
const exact = (n: number) => n.toLocaleString('en-US');

/** `trained`: the model's trained context (a built-in GGUF's metadata); null or undefined where it is not known. */
export function aliasWindowAboveTrained(model: string, window: number | null, trained: number | null | undefined): string | null {
  if (window === null || trained === null || trained === undefined || window <= trained) return null;
  return `${model} was trained for ${exact(trained)} tokens: the alias asks for ${exact(window)}, which the engine holds memory for, but past ${exact(trained)} the model's answers are likely to fall apart.`;
}
