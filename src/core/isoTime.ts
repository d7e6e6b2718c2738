/** "2026-11-23T14:39:46.568Z". */
export const renderIsoTime = (ms: number): string => new Date(ms).toISOString();
