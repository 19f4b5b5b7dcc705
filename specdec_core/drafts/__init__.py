"""Scribes (drafts): anything that gives q over the target's vocabulary."""
from specdec_core.drafts.base import Draft
from specdec_core.drafts.lm import LMDraft
from specdec_core.drafts.ngram import NgramDraft, NgramModel
from specdec_core.drafts.prompt_lookup import PromptLookupDraft
from specdec_core.drafts.subset_lm import SubsetLMDraft

__all__ = ["Draft", "LMDraft", "NgramModel", "NgramDraft", "PromptLookupDraft", "SubsetLMDraft"]
