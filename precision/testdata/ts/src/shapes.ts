// Fixture: non-ASCII text stands before identifiers on purpose.
export interface Shape { area(): number }

/* é */ export class Square implements Shape { constructor(public side: number) {} area(): number { return this.side * this.side } }

/* 日本 */ export const unit: Shape = new Square(1);

/* 😀 */ export function total(xs: Shape[]): number { let t = 0; for (const x of xs) { t += x.area() } return t }
