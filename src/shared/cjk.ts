/**
 * A character of the scripts written without spaces between words, whose words search finds inside a sentence:
 * - U+3040-U+D7AF (the audit's files #7): from kana through the CJK ideographs (extension A, the unified block) to
 *   the Hangul syllables, with the few smaller blocks between them (Yi, Javanese, Cham, Myanmar extensions…);
 * - U+0E00-U+17FF (migration 0013): Thai and Lao through Tibetan and Myanmar to Khmer. The blocks between them that
 *   do put spaces between words (Georgian, Ethiopic, Cherokee…) are searched by substring as well.
 * A query with one is answered from the trigram index (main's search-cjk.ts), which holds every turn with one:
 * migration 0013's GLOB is this same class, so no turn a query could match is missing from it. Two ranges keep that
 * GLOB cheap on every finished answer (a class of eight ranges cost four times as much per character). The rarer
 * blocks beyond them (compatibility ideographs, half-width katakana, the supplementary ideographs) are searched by
 * word, as before, unless the query has a character of this class too.
 */
export const CJK = /[\u0e00-\u17ff\u3040-\ud7af]/u;
