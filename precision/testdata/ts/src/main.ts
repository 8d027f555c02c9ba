import { total, unit, Square } from "./shapes";
import * as other from "./other";

/* 😀 é */ const all = total([unit, new Square(2)]); other.label(new other.Shape("日本")); console.log(all);
