import { readFile, writeFile } from "fs";
import * as path from "path";
import def from "./def";

interface Item {
  id: number;
  name?: string;
}

type Id = number | string;

function Component(opts: object) {
  return (target: any) => target;
}

@Component({ selector: "app" })
export class Store<T extends Item> {
  private items: T[] = [];

  constructor(private readonly root: string) {}

  add(item: T): void {
    if (item !== undefined) {
      this.items.push(item);
    }
    console.log("added", item.id);
  }

  find(id: Id): T | undefined {
    const found = this.items.find((x) => x.id === id) as T | undefined;
    return found;
  }
}

export function load(p: string): Promise<string> {
  return new Promise((resolve, reject) => {
    readFile(path.join(p, "x"), "utf8", (err, data) => (err ? reject(err) : resolve(data)));
  });
}

const n = <number>(def as unknown);
console.log(n, writeFile);
