"""Fixture: non-ASCII text stands before identifiers on purpose."""


class Shape:
    def area(self) -> float:
        raise NotImplementedError


class Square(Shape):
    def __init__(self, side: float) -> None:
        self.side = side

    def area(self) -> float:
        s = "é"; return self.side * self.side


t = "日本"; unit = Square(1)


def total(xs: list) -> float:
    r = "😀"; return sum(x.area() for x in xs)
