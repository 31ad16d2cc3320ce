"""Saves a document again with a password, as LibreOffice's File > Save with password does:
OpenDocument encrypts its parts (named in META-INF/manifest.xml), Office Open XML becomes an
encrypted OLE compound file. Run with Debian's python3 (python3-uno) while soffice listens:
  soffice --headless --accept='socket,port=2002;urp;' &   /usr/bin/python3 protect.py IN OUT FILTER"""
import sys
import time
import uno
from com.sun.star.beans import PropertyValue


def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


source, target, filter_name = sys.argv[1:4]
resolver = uno.getComponentContext().ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver",
                                                                              uno.getComponentContext())
for _ in range(100):
    try:
        context = resolver.resolve("uno:socket,host=localhost,port=2002;urp;StarOffice.ComponentContext")
        break
    except Exception:
        time.sleep(0.2)
desktop = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
document = desktop.loadComponentFromURL(uno.systemPathToFileUrl(source), "_blank", 0, (prop("Hidden", True),))
document.storeToURL(uno.systemPathToFileUrl(target), (prop("FilterName", filter_name), prop("Password", "secret")))
document.close(True)
