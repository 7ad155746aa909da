"""Spec loading and validation: YAML in, a validated Spec (data + line map) out, or SpecError."""
from .loader import Spec, load_spec, validate_paths, find_specs

__all__ = ["Spec", "load_spec", "validate_paths", "find_specs"]
