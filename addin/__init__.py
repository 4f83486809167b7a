"""benchsheet.addin"""
