import { Item, type Price } from "./item";
import type { Owner } from './owner';
import Default, * as ns from "lib";
import fs = require("fs");

/** The most items a cart holds. */
export const MAX_ITEMS: number = 100;

export interface Store {
  find(id: string): Cart | undefined;
  readonly name: string;
  size?: number;
}

export type ID = string | number;
type Pair<T> = [T, T];

export enum Color {
  Red,
  Green = "green",
}

const enum Hidden { A }

// A cart.
@Injectable()
export class Cart<T extends Item> implements Store {
  private readonly items: T[] = [];
  public name = "cart";
  protected owner?: Owner;
  static count: number;

  constructor(private store: Store) {}

  find(id: string): Cart | undefined {
    return undefined;
  }

  private secret(): void {}

  get total(): number { return this.items.length; }
}

export abstract class Base {
  abstract describe(): string;
}

export function newCart<T extends Item>(owner: Owner): Cart<T> {
  return new Cart<T>(null as any);
}

export declare function declared(x: number): void;

export namespace Util {
  export function helper(): void {}
  const internal = 1;
}

declare module "ambient" {
  export function amb(): void;
}

export const toPrice = (n: number): Price => ({ n } as any);
let mutable = 1;

export default Cart;
