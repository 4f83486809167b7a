"""benchsheet.templates"""
