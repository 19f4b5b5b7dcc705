"""Scribes (drafts): anything that gives q over the target's vocabulary."""
from .base import Scribe
from .lm import LMScribe
from .ngram import NgramModel, NgramScribe
from .prompt_lookup import PromptLookupScribe
from .subset_lm import SubsetLMScribe

__all__ = ["Scribe", "LMScribe", "NgramModel", "NgramScribe", "PromptLookupScribe", "SubsetLMScribe"]
