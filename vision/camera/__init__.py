"""(front door: see docs/ARCHITECTURE.md)"""
