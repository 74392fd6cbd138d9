/**
 * A character of the scripts written without spaces between words, whose words search finds inside a sentence
 * (the audit's files #7): U+3040-U+D7AF, from kana through the CJK ideographs (extension A, the unified block) to
 * the Hangul syllables, with the few smaller blocks between them (Yi, Javanese, Cham, Myanmar extensions…), written
 * without spaces too or searched as well by substring. A query with one is answered from the trigram index (main's
 * search.ts), which holds every turn with one: migration 0012's GLOB is this same range, so no turn a query could
 * match is missing from it. One range keeps that GLOB cheap on every finished answer (a class of eight ranges cost
 * four times as much per character). The rarer blocks beyond it (compatibility ideographs, half-width katakana, the
 * supplementary ideographs) are searched by word, as before, unless the query has a character of this range too.
 */
export const CJK = /[\u3040-\ud7af]/u;
