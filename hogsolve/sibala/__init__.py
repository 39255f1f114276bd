"""Sibala (十八啦), the four-dice hand-ranking game: hands, comparison, exact odds.

>>> compare([5, 3, 5, 4], [2, 6, 2, 3])
'White win. - with normal point: 9'
"""
from .rules import ALL_OF_A_KIND, NORMAL_POINT, NO_POINT, Hand, SibalaError, Variant, compare, evaluate
from .odds import odds

__all__ = ["ALL_OF_A_KIND", "NORMAL_POINT", "NO_POINT", "Hand", "SibalaError", "Variant",
           "compare", "evaluate", "odds"]
