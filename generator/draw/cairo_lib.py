"""libcairo through cffi, with only the functions our previews call.

Why not cairocffi's binding (cairosvg brings it, and the tests' DXF viewer uses it): importing
cairocffi parses cairo's whole header with pycparser, 0.3 s in every process that draws a preview,
which in a build is every worker of the pool. These few declarations, copied from cairo.h as
cairocffi has them, parse in milliseconds. ABI mode: nothing is compiled, the library is the one
cairocffi would open.

Imported inside the functions that draw: `pnp referee` must start without loading cairo.
"""
from __future__ import annotations

import threading
from functools import lru_cache

CDEF = """
typedef int cairo_bool_t;
typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;
typedef struct _cairo_path cairo_path_t;            /* only ever passed by pointer here */
typedef struct _cairo_matrix {
    double xx; double yx;
    double xy; double yy;
    double x0; double y0;
} cairo_matrix_t;
typedef int cairo_status_t;        /* the enums as the ints they are; their values below */
typedef int cairo_format_t;
typedef int cairo_fill_rule_t;
typedef int cairo_line_cap_t;
typedef int cairo_line_join_t;
typedef struct _cairo_pattern cairo_pattern_t;
typedef int cairo_extend_t;
typedef int cairo_filter_t;

cairo_surface_t *cairo_image_surface_create (cairo_format_t format, int width, int height);
cairo_surface_t *cairo_image_surface_create_for_data (unsigned char *data, cairo_format_t format, int width, int height, int stride);
int cairo_format_stride_for_width (cairo_format_t format, int width);
unsigned char *cairo_image_surface_get_data (cairo_surface_t *surface);
cairo_format_t cairo_image_surface_get_format (cairo_surface_t *surface);
int cairo_image_surface_get_width (cairo_surface_t *surface);
int cairo_image_surface_get_height (cairo_surface_t *surface);
int cairo_image_surface_get_stride (cairo_surface_t *surface);
void cairo_surface_flush (cairo_surface_t *surface);
cairo_status_t cairo_surface_status (cairo_surface_t *surface);
void cairo_surface_destroy (cairo_surface_t *surface);

cairo_t *cairo_create (cairo_surface_t *target);
void cairo_destroy (cairo_t *cr);
cairo_status_t cairo_status (cairo_t *cr);
void cairo_save (cairo_t *cr);
void cairo_restore (cairo_t *cr);
void cairo_scale (cairo_t *cr, double sx, double sy);
void cairo_translate (cairo_t *cr, double tx, double ty);
void cairo_transform (cairo_t *cr, const cairo_matrix_t *matrix);
void cairo_matrix_init (cairo_matrix_t *matrix, double xx, double yx, double xy, double yy, double x0, double y0);

void cairo_set_source_rgb (cairo_t *cr, double red, double green, double blue);
void cairo_set_source_rgba (cairo_t *cr, double red, double green, double blue, double alpha);
void cairo_user_to_device_distance (cairo_t *cr, double *dx, double *dy);
void cairo_set_source_surface (cairo_t *cr, cairo_surface_t *surface, double x, double y);
cairo_pattern_t *cairo_get_source (cairo_t *cr);
void cairo_pattern_set_extend (cairo_pattern_t *pattern, cairo_extend_t extend);
void cairo_pattern_set_filter (cairo_pattern_t *pattern, cairo_filter_t filter);
void cairo_set_fill_rule (cairo_t *cr, cairo_fill_rule_t fill_rule);
void cairo_set_line_width (cairo_t *cr, double width);
void cairo_set_line_cap (cairo_t *cr, cairo_line_cap_t line_cap);
void cairo_set_line_join (cairo_t *cr, cairo_line_join_t line_join);
void cairo_set_dash (cairo_t *cr, const double *dashes, int num_dashes, double offset);
void cairo_set_miter_limit (cairo_t *cr, double limit);

void cairo_new_path (cairo_t *cr);
void cairo_new_sub_path (cairo_t *cr);
void cairo_move_to (cairo_t *cr, double x, double y);
void cairo_line_to (cairo_t *cr, double x, double y);
void cairo_curve_to (cairo_t *cr, double x1, double y1, double x2, double y2, double x3, double y3);
void cairo_arc (cairo_t *cr, double xc, double yc, double radius, double angle1, double angle2);
void cairo_rel_line_to (cairo_t *cr, double dx, double dy);
void cairo_rel_curve_to (cairo_t *cr, double dx1, double dy1, double dx2, double dy2, double dx3, double dy3);
void cairo_rectangle (cairo_t *cr, double x, double y, double width, double height);
void cairo_close_path (cairo_t *cr);
cairo_path_t *cairo_copy_path (cairo_t *cr);
void cairo_append_path (cairo_t *cr, const cairo_path_t *path);
void cairo_path_destroy (cairo_path_t *path);

void cairo_paint (cairo_t *cr);
void cairo_stroke (cairo_t *cr);
void cairo_stroke_preserve (cairo_t *cr);
void cairo_fill (cairo_t *cr);
void cairo_fill_preserve (cairo_t *cr);
void cairo_clip (cairo_t *cr);
void cairo_paint_with_alpha (cairo_t *cr, double alpha);
cairo_pattern_t *cairo_pattern_create_linear (double x0, double y0, double x1, double y1);
cairo_pattern_t *cairo_pattern_create_radial (double cx0, double cy0, double radius0, double cx1, double cy1, double radius1);
void cairo_pattern_add_color_stop_rgba (cairo_pattern_t *pattern, double offset, double red, double green, double blue, double alpha);
void cairo_pattern_destroy (cairo_pattern_t *pattern);
void cairo_set_source (cairo_t *cr, cairo_pattern_t *source);
"""

# cairo.h's values of the enums used.
STATUS_SUCCESS = 0
FORMAT_ARGB32, FORMAT_RGB24 = 0, 1
FILL_RULE_WINDING, FILL_RULE_EVEN_ODD = 0, 1
LINE_CAP_BUTT, LINE_CAP_ROUND, LINE_CAP_SQUARE = 0, 1, 2
LINE_JOIN_MITER, LINE_JOIN_ROUND, LINE_JOIN_BEVEL = 0, 1, 2
EXTEND_REFLECT, EXTEND_PAD = 2, 3
FILTER_GOOD = 1

# The library's names, as cairocffi looks for them: the usual file names first (no search), then
# whatever ctypes finds.
FILENAMES = ("libcairo.so.2", "libcairo.2.dylib", "libcairo-2.dll")
LIBRARY_NAMES = ("cairo-2", "cairo", "libcairo-2")


_opening = threading.Lock()


def cairo():
    """(ffi, lib): the declarations above, and libcairo opened with them, once a process. Opened
    under a lock: two threads drawing their first picture at once (the studio's server) would each
    make an FFI of its own, and a pointer of one is refused by the other's functions."""
    with _opening:
        return _open()


@lru_cache(maxsize=1)
def _open():
    import cffi
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    errors = []
    for name in FILENAMES:
        try:
            return ffi, ffi.dlopen(name)
        except OSError as exc:
            errors.append(str(exc))
    from ctypes.util import find_library
    for name in LIBRARY_NAMES:
        path = find_library(name)
        if path:
            try:
                return ffi, ffi.dlopen(path)
            except OSError as exc:
                errors.append(str(exc))
    raise OSError("cannot open the cairo library: " + "; ".join(errors))


class ImageSurface:
    """A cairo image surface and a context drawing on it: `ptr` the cairo_t for the renderers,
    and the few surface methods the PNG writer reads (the names of cairocffi's)."""

    def __init__(self, rgb24: bool, width: int, height: int):
        ffi, lib = cairo()
        self.lib = lib
        fmt = FORMAT_RGB24 if rgb24 else FORMAT_ARGB32
        self.surface = ffi.gc(lib.cairo_image_surface_create(fmt, width, height), lib.cairo_surface_destroy)
        if lib.cairo_surface_status(self.surface) != STATUS_SUCCESS:
            raise MemoryError(f"cairo cannot make a {width} x {height} image")
        self.ptr = ffi.gc(lib.cairo_create(self.surface), lib.cairo_destroy)
        self._buffer = lambda n: ffi.buffer(lib.cairo_image_surface_get_data(self.surface), n)

    def check(self) -> None:
        """The first error cairo met while drawing, if any (cairo's status is sticky)."""
        status = self.lib.cairo_status(self.ptr)
        if status != STATUS_SUCCESS:
            raise RuntimeError(f"cairo could not draw the preview (status {status})")

    def flush(self) -> None:
        self.lib.cairo_surface_flush(self.surface)

    def get_width(self) -> int:
        return self.lib.cairo_image_surface_get_width(self.surface)

    def get_height(self) -> int:
        return self.lib.cairo_image_surface_get_height(self.surface)

    def get_stride(self) -> int:
        return self.lib.cairo_image_surface_get_stride(self.surface)

    def get_format(self) -> int:
        return self.lib.cairo_image_surface_get_format(self.surface)

    def get_data(self):
        return self._buffer(self.get_stride() * self.get_height())
