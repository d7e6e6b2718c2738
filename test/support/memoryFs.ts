// The companion module's `$.fs` over an in-memory map of paths to texts, for the module's unit tests.

/** `read`, `list` and `stat` as the module calls them, over the map `files()` gives now; a path not in it is ENOENT. */
export const memoryFs = (files: () => Map<string, string>) => ({
  read: async (path: string) => {
    const text = files().get(path);
    if (text === undefined) throw new Error(`ENOENT ${path}`);
    return text;
  },
  list: async (dir: string) =>
    [...files().keys()]
      .filter((p) => p.startsWith(`${dir}/`))
      .map((p) => ({ name: p.slice(dir.length + 1), kind: "file", mtimeMs: 0, size: 0 })),
  stat: async (path: string) => ({ kind: "file", size: files().get(path)?.length ?? 0, mtimeMs: 0 }),
});
