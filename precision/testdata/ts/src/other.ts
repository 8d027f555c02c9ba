// Another Shape, in another module.
/* 😀 */ export class Shape { constructor(public name: string) {} }

/* é日本 */ export function label(s: Shape): string { const x = s.name; return x }
