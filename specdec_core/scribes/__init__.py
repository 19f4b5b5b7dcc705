"""Scribes (drafts): anything that gives q over the target's vocabulary."""
from specdec_core.scribes.base import Scribe
from specdec_core.scribes.lm import LMScribe
from specdec_core.scribes.ngram import NgramModel, NgramScribe
from specdec_core.scribes.prompt_lookup import PromptLookupScribe
from specdec_core.scribes.subset_lm import SubsetLMScribe

__all__ = ["Scribe", "LMScribe", "NgramModel", "NgramScribe", "PromptLookupScribe", "SubsetLMScribe"]
