from pkg.shapes import total, unit, Square
from pkg import other

a = "😀 é"; b = total([unit, Square(2)]); c = other.label(other.Shape("日本"))
