import { describe, expect, it } from "vitest";
import { parseChecklist, renderChecklistProgress } from "../../src/core/checklist.js";

/** Each box as "x:text@line" or " :text@line", in order. */
function boxes(text: string): string[] {
  return parseChecklist(text).items.map((item) => `${item.checked ? "x" : " "}:${item.text}@${item.line}`);
}

describe("parseChecklist finds task boxes", () => {
  it.each([
    ["an empty file", "", []],
    ["a file with no boxes", "# Plan\n\nWrite the code.\n- a plain item\n", []],
    ["dash, star and plus", "- [ ] a\n* [x] b\n+ [X] c\n", [" :a@1", "x:b@2", "x:c@3"]],
    ["numbered items", "1. [ ] one\n2) [x] two\n10. [ ] ten\n", [" :one@1", "x:two@2", " :ten@3"]],
    [
      "nested lists at any depth",
      "- [ ] parent\n  - [x] child\n    - [ ] grandchild\n\t- [ ] tabbed child\n",
      [" :parent@1", "x:child@2", " :grandchild@3", " :tabbed child@4"],
    ],
    ["a list nested on one line", "- 1. [ ] nested\n", [" :nested@1"]],
    ["two to four spaces after the marker", "-  [ ] two\n1.    [ ] four\n", [" :two@1", " :four@2"]],
    ["a tab in the box", "- [\t] tab box\n", [" :tab box@1"]],
    ["text trimmed at the end", "- [ ]   spaced out   \n", [" :spaced out@1"]],
    ["CRLF line endings", "- [ ] a\r\n- [x] b\r\n", [" :a@1", "x:b@2"]],
    ["a lone CR ends a line too", "- [ ] a\r- [ ] b", [" :a@1", " :b@2"]],
    ["a BOM", "\uFEFF- [ ] first\n", [" :first@1"]],
    ["inside a blockquote", "> - [ ] quoted\n", [" :quoted@1"]],
    ["a list after prose (lists interrupt paragraphs)", "Some prose\n- [ ] task\n", [" :task@2"]],
    ["a lazy continuation after a bare box gives its text", "- [ ]\n  Write it\n", [" :Write it@1"]],
    ["an ordered list may start mid-list after a blank line", "Text\n\n2. [x] second\n", ["x:second@3"]],
    ["a tab after a quote marker", ">\t- [ ] a\n>     - [ ] b\n", [" :a@1", " :b@2"]],
    ["a quote inside an item, an item inside the quote", "- > - [x] deep\n", ["x:deep@1"]],
    ["links and code in the text", "- [ ] see [docs](x.md) and `a [ ] b`\n", [" :see [docs](x.md) and `a [ ] b`@1"]],
  ])("%s", (_name, text, expected) => {
    expect(boxes(text)).toEqual(expected);
  });
});

describe("parseChecklist ignores what is not a box", () => {
  it.each([
    ["a box inside prose", "Tick [ ] when done\n"],
    ["a box in a heading", "# [ ] heading\n## [x] another\n"],
    ["a heading inside an item", "- # [ ] heading\n"],
    ["a date in brackets", "- [2024-01-01] released\n"],
    ["a link", "- [docs](README.md)\n"],
    ["two characters in the box", "- [xx] no\n- [  ] no\n"],
    ["other letters in the box", "- [v] no\n- [-] no\n"],
    ["no whitespace after the box", "- [x]done\n"],
    ["a box with no text", "- [ ]\n- [x]   \n"],
    ["a box not right after the marker", "- item [ ] later\n"],
    ["no space after the marker", "-[ ] no\n1.[ ] no\n"],
    ["five spaces after the marker (indented code)", "-     [ ] code\n"],
    ["an indented code block", "Intro\n\n    - [ ] code\n"],
    ["deep indentation continuing a paragraph", "- [ ] parent\n        - [ ] continuation\n"],
    ["an ordered item not at 1 cannot interrupt a paragraph", "Costs\n2. [ ] not an item\n"],
    ["a setext underline makes the item's text a heading", "- [ ] Title\n  ---\n- [x] Other\n  ===\n"],
    ["a bare box whose paragraph ends at a blank line", "> - [ ]\n\n    text\n"],
    ["an empty item ends at a blank line", "-\n\n    - [ ] code\n"],
    ["an HTML comment", "<!--\n- [ ] hidden\n-->\n"],
    ["an HTML comment inside a list item", "- <!-- note\n  - [ ] hidden\n  -->\n"],
  ])("%s", (_name, text) => {
    const inside = boxes(text).filter((box) => !box.startsWith(" :parent"));
    expect(inside).toEqual([]);
  });
});

describe("parseChecklist and fenced code", () => {
  it.each([
    ["backtick fence", "```\n- [ ] code\n```\n- [ ] after\n", [" :after@4"]],
    ["tilde fence", "~~~md\n- [ ] code\n~~~\n- [ ] after\n", [" :after@4"]],
    ["a shorter fence does not close", "````\n- [ ] a\n```\n- [ ] b\n````\n- [ ] after\n", [" :after@6"]],
    ["the other fence kind does not close", "```\n~~~\n- [ ] code\n```\n- [ ] after\n", [" :after@5"]],
    ["a closing fence may carry spaces", "```\n- [ ] code\n```   \n- [ ] after\n", [" :after@4"]],
    ["a closing fence may not carry text", "```\n```js\n- [ ] code\n", []],
    ["fences indented up to 3 spaces", "   ```\n- [ ] code\n  ```\n- [ ] after\n", [" :after@4"]],
    ["a 4-space indented fence is not a fence", "Text\n    ```\n- [ ] box\n", [" :box@3"]],
    ["an unclosed fence: the rest is code", "- [ ] before\n```\n- [ ] a\n\n- [ ] b\n", [" :before@1"]],
    ["backticks in a backtick fence's info string", "``` a`b\n- [ ] box\n", [" :box@2"]],
    ["CRLF around fences", "```\r\n- [ ] code\r\n```\r\n- [ ] after\r\n", [" :after@4"]],
    ["a fence inside a list item", "- [ ] item\n  ```\n  - [ ] code\n  ```\n- [ ] after\n", [" :item@1", " :after@5"]],
    ["a fence ends with its list item", "- [ ] item\n  ```\n  - [ ] code\n- [ ] next\n", [" :item@1", " :next@4"]],
    ["a fence opened by a list item", "- ```\n  - [ ] code\n  ```\n- [ ] after\n", [" :after@4"]],
    ["a fence ends with its blockquote", "> ```\n> - [ ] code\n- [ ] after\n", [" :after@3"]],
  ])("%s", (_name, text, expected) => {
    expect(boxes(text)).toEqual(expected);
  });
});

describe("parseChecklist totals", () => {
  it.each([
    ["no boxes", "just text\n", 0, 0, undefined],
    ["all checked", "- [x] a\n- [X] b\n", 2, 2, undefined],
    ["first open is the first unchecked in file order", "- [x] a\n- [ ] b\n  - [ ] c\n", 1, 3, { text: "b", line: 2 }],
  ])("%s", (_name, text, done, total, firstOpen) => {
    const list = parseChecklist(text);
    expect({ done: list.done, total: list.total, firstOpen: list.firstOpen }).toEqual({ done, total, firstOpen });
  });
});

describe("renderChecklistProgress", () => {
  it.each([
    [
      "some open",
      "- [x] a\n- [x] b\n- [ ] Write the migration\n- [ ] d\n- [x] e\n",
      "3/5 done · next: Write the migration",
    ],
    ["all done", "- [x] a\n- [x] b\n", "2/2 done"],
    ["no boxes", "nothing\n", "no task boxes"],
    ["a long next item is shortened", `- [ ] ${"a".repeat(150)}\n`, `0/1 done · next: ${"a".repeat(99)}…`],
  ])("%s", (_name, text, expected) => {
    expect(renderChecklistProgress(parseChecklist(text))).toBe(expected);
  });
});

describe("parseChecklist on hostile input", () => {
  it.each([
    ["3,000 nested items", Array.from({ length: 3000 }, (_, i) => `${" ".repeat(i * 2)}- [ ] n`).join("\n")],
    ["a 100 KB line of list markers", `${"- ".repeat(50_000)}[ ] x\n`.repeat(2)],
    ["a 100 KB line of quote markers", `${"> ".repeat(50_000)}- [ ] x\n`.repeat(2)],
    ["200,000 lines", Array.from({ length: 200_000 }, (_, i) => (i % 7 ? `- [ ] ${i}` : "```")).join("\n")],
  ])("%s: linear enough to finish at once", (_name, text) => {
    const started = performance.now();
    parseChecklist(text);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
