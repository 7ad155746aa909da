"""Spec loading and validation: YAML in, a validated Spec (data + line map) out, or SpecError."""
from .loader import Spec, display_path, find_specs, load_related, load_spec

__all__ = ["Spec", "display_path", "find_specs", "load_related", "load_spec"]
