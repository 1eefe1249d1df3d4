"""Wend and its Swedish sibling Swend: a letter grid covered by winding word paths."""
