import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { matchPromise, parsePauseRequest, renderPromisePhrase } from "../../src/core/matchPromise.js";

describe("matchPromise", () => {
  it.each([
    ["substring, same case", "All tests passing", ["All tests passing"], "substring", "All tests passing"],
    ["substring, other case", "...and now ALL TESTS PASSING.", ["All tests passing"], "substring", "All tests passing"],
    ["substring, whitespace folded", "all\n  tests\tpassing", ["All tests passing"], "substring", "All tests passing"],
    [
      "substring, phrase with extra spaces",
      "all tests passing",
      ["  All   tests passing "],
      "substring",
      "  All   tests passing ",
    ],
    ["substring, absent", "Some tests passing", ["All tests passing"], "substring", undefined],
    ["substring, partial word order", "passing all tests", ["All tests passing"], "substring", undefined],
    ["list, second phrase", "Blocked: need input", ["DONE", "blocked: need input"], "substring", "blocked: need input"],
    ["no phrases", "DONE", [], "substring", undefined],
    ["empty reply", "", ["DONE"], "substring", undefined],
    ["tag, bare phrase ignored", "I am DONE", ["DONE"], "tag", undefined],
    ["tag, inside tag", "ok <promise>done</promise>", ["DONE"], "tag", "DONE"],
    [
      "tag, folded inside",
      "<promise>\n All  Tests\nPassing </promise>",
      ["all tests passing"],
      "tag",
      "all tests passing",
    ],
    ["tag, tag case", "<PROMISE>DONE</PROMISE>", ["DONE"], "tag", "DONE"],
    [
      "tag, a phrase written in its own tags",
      "ok <promise>SHIPPED</promise>",
      ["<promise>SHIPPED</promise>"],
      "tag",
      "<promise>SHIPPED</promise>",
    ],
    [
      "substring, a phrase written in tags stays literal",
      "SHIPPED",
      ["<promise>SHIPPED</promise>"],
      "substring",
      undefined,
    ],
    ["tag, must be whole inner text", "<promise>not DONE yet</promise>", ["DONE"], "tag", undefined],
    ["tag, second tag", "<promise>x</promise> <promise>DONE</promise>", ["DONE"], "tag", "DONE"],
    ["tag, unclosed", "<promise>DONE", ["DONE"], "tag", undefined],
  ] as const)("%s", (_name, reply, phrases, format, expected) => {
    expect(matchPromise(reply, phrases, format)).toBe(expected);
  });
});

describe("parsePauseRequest", () => {
  it.each([
    ["no tag", "I fixed the race; the suite passes.", undefined],
    ["a question", "Done so far. <loop-pause>Which API key should I use?</loop-pause>", "Which API key should I use?"],
    ["whitespace folded", "<loop-pause>\n  Keep   the old\tschema? \n</loop-pause>", "Keep the old schema?"],
    ["tags in any case", "<LOOP-PAUSE>Ship it?</Loop-Pause>", "Ship it?"],
    ["an empty tag", "<loop-pause></loop-pause>", ""],
    ["the first of two", "<loop-pause>A?</loop-pause> <loop-pause>B?</loop-pause>", "A?"],
    ["unclosed", "<loop-pause>Which one?", undefined],
    ["closing tag only", "see </loop-pause> here", undefined],
    [
      "a question of megabytes: cut",
      `<loop-pause>${"Which one? ".repeat(1_000_000)}</loop-pause>`,
      `${"Which one? ".repeat(90)}Which one…`,
    ],
    ["a dotted capital I before the tag", "\u0130 <loop-pause>Ok?</loop-pause>", "Ok?"],
  ] as const)("%s", (_name, reply, expected) => {
    expect(parsePauseRequest(reply)).toBe(expected);
  });
});

describe("renderPromisePhrase", () => {
  it("shows a phrase in one pair of tags under tag, however it was written; quoted otherwise", () => {
    expect(renderPromisePhrase("SHIPPED", "tag")).toBe("<promise>SHIPPED</promise>");
    expect(renderPromisePhrase("<promise>SHIPPED</promise>", "tag")).toBe("<promise>SHIPPED</promise>");
    expect(renderPromisePhrase("<promise>SHIPPED</promise>", "substring")).toBe('"<promise>SHIPPED</promise>"');
  });
});

describe("tags in a hostile reply", () => {
  // The lazy-body regexes the tag search replaced: the reference for what a tag means.
  const lazyPromise = /<promise>((?:.|[\n\r\u2028\u2029])*?)<\/promise>/gi;
  const lazyPause = /<loop-pause>((?:.|[\n\r\u2028\u2029])*?)<\/loop-pause>/i;
  const piece = fc.constantFrom(
    "<promise>",
    "</promise>",
    "<PROMISE>",
    "<loop-pause>",
    "</LOOP-PAUSE>",
    "done",
    " ",
    "\n",
    "<",
    "x",
  );

  it("finds the same tags as a lazy regex would", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const reply = pieces.join("");
        const inners = new Set([...reply.matchAll(lazyPromise)].map((m) => (m[1] ?? "").replace(/\s+/g, " ").trim()));
        expect(matchPromise(reply, ["done"], "tag")).toBe(inners.has("done") ? "done" : undefined);
        const pause = lazyPause.exec(reply);
        expect(parsePauseRequest(reply)).toBe(pause ? (pause[1] ?? "").replace(/\s+/g, " ").trim() : undefined);
      }),
      { numRuns: 2000 },
    );
  });

  it("answers at once for many tags never closed (a lazy regex took minutes)", () => {
    const promises = "<promise>x ".repeat(100_000);
    const pauses = "<loop-pause>x ".repeat(100_000);
    const started = performance.now();
    expect(matchPromise(`${promises}<promise>done`, ["done"], "tag")).toBeUndefined();
    expect(parsePauseRequest(pauses)).toBeUndefined();
    expect(matchPromise(`${promises}</promise>`, ["done"], "tag")).toBeUndefined();
    expect(parsePauseRequest(`${pauses}Ok?</loop-pause>`)).toMatch(/^x <loop-pause>x .*…$/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
