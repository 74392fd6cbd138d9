/**
 * A first-in-first-out cache of text by text, bounded by entries and by characters. A bound by entries alone let a
 * long session keep far more than meant: 2,000 entries of a few hundred characters are a few MB, but 2,000 code
 * blocks of 40,000 characters (a file a model wrote out) with their highlighted HTML are hundreds of MB, kept
 * after their chats were closed (leaks audit: the page's heap grew by about 80 KB with each such answer).
 * The newest entry is always kept, even one larger than the whole budget.
 */
export class TextCache<V> {
  private readonly map = new Map<string, { value: V; chars: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
    private readonly weigh: (value: V) => number = () => 0,
  ) {}

  get(key: string): V | undefined {
    return this.map.get(key)?.value;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  set(key: string, value: V): void {
    this.delete(key);
    const chars = key.length + this.weigh(value);
    while (this.map.size > 0 && (this.map.size >= this.maxEntries || this.total + chars > this.maxChars)) {
      this.delete(this.map.keys().next().value as string);
    }
    this.map.set(key, { value, chars });
    this.total += chars;
  }

  get size(): number {
    return this.map.size;
  }

  /** Characters held, keys and values together. */
  get chars(): number {
    return this.total;
  }

  private delete(key: string): void {
    const entry = this.map.get(key);
    if (!entry) return;
    this.map.delete(key);
    this.total -= entry.chars;
  }
}
