"""Pipelines that compose readers, suggestion sources, models and scorers into whole jobs."""

from paraguide.pipeline.prepare import PrepareConfig, format_report, prepare

__all__ = ["PrepareConfig", "format_report", "prepare"]
