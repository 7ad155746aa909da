"""Makes the small fonts the tests set Hebrew, Arabic and CJK text in (tests/fonts/), as subsets of
Debian's fonts: DejaVu Sans (fonts-dejavu-core; Bitstream Vera licence with DejaVu's changes in the
public domain: a modified font may not be named Bitstream or Vera) for Hebrew and Arabic, and Droid
Sans Fallback (fonts-droid-fallback; Apache License 2.0) for Chinese and Japanese. Their licences
are beside them. The tests use only the committed subsets; this script is how they were made:

    apt-get install --no-install-recommends fonts-dejavu-core fonts-droid-fallback
    .venv/bin/python scripts/make_test_fonts.py
"""
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

OUT = Path(__file__).resolve().parent.parent / "tests" / "fonts"
BASIC = list(range(0x20, 0x7F)) + [0xA0, 0xD7, 0x2013, 0x2014, 0x2019, 0x201C, 0x201D, 0x2026, 0xFFFC]
COMMON_CJK = ("日本語の漢字文字列一二三四五六七八九十百千万円年月日時分人大小中上下左右山川田口目手足力"
              "火水木金土子女男学生先名前何今会社国語話読書見行来出入気天雨電車長高新古白黒赤青東西南北"
              "春夏秋冬朝昼夜毎週半分私彼誰方所手紙店物品飲食肉魚花草犬猫鳥馬牛羊龍竜剣盾王城兵戦勝負")


def make(source: str, name: str, codepoints: list[int]) -> None:
    options = subset.Options()
    options.layout_features = ["*"]          # every shaping feature: joining, marks, ligatures
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.glyph_names = True
    font = TTFont(source)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=codepoints)
    sub.subset(font)
    font.save(OUT / name)
    print(name, (OUT / name).stat().st_size, "bytes")


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    make("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "dejavu-hebrew-arabic.ttf",
         BASIC + list(range(0x0591, 0x05F5)) + list(range(0x0600, 0x0700)) + [0x200C, 0x200D, 0x200E, 0x200F]
         + list(range(0xFB1D, 0xFB50)) + list(range(0xFB50, 0xFE00)) + list(range(0xFE70, 0xFF00)))
    make("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", "droid-cjk-subset.ttf",
         BASIC + list(range(0x3000, 0x3040)) + list(range(0x3040, 0x3100)) + list(range(0xFF01, 0xFF5F))
         + sorted({ord(c) for c in COMMON_CJK}))
