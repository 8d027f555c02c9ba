"""Shopping carts."""
import os
import os.path as osp
from collections import OrderedDict, defaultdict as dd
from . import helpers
from ..core import *

__all__ = ["Cart", "new_cart", "MAX_ITEMS"]

MAX_ITEMS = 100
_registry: dict = {}
default_owner = None


# A cart of items.
@dataclass
class Cart(Base, metaclass=Meta):
    """A cart."""

    currency = "EUR"
    limit: int = 10

    def __init__(self, owner):
        self.owner = owner

    @property
    def total(self) -> int:
        return sum(i.price for i in self.items)

    async def _refresh(self):
        def inner():
            pass
        return inner

    class Line:
        def price(self):
            return 0


def new_cart(owner=None, *, currency="EUR"):
    # Build one.
    return Cart(owner)


def _helper(x=lambda: 1):
    return x


if __name__ == "__main__":
    print(new_cart())
