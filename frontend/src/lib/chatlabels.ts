// The open chats' names in the sidebar: two chats of the same name (two
// builds both called "Fake Dusk") are told apart by a number in the order
// they were opened: "Fake Dusk", "Fake Dusk (2)".
export function distinctLabels(names: string[]): string[] {
  const seen = new Map<string, number>();
  const total = new Map<string, number>();
  for (const n of names) total.set(n, (total.get(n) ?? 0) + 1);
  return names.map((n) => {
    if ((total.get(n) ?? 0) < 2) return n;
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return k === 1 ? n : `${n} (${k})`;
  });
}
