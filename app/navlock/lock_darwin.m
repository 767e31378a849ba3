//go:build darwin && cgo && (desktop || dev)

// The WKWebView side of the navigation lock (macOS). Wails v2.9.2 makes its
// WailsContext the webview's navigationDelegate and implements only
// webView:didFinishNavigation: there, so WebKit allows every navigation.
// The lock adds the policy method to the class of that delegate and answers
// it through Go (lock_webkit.go). Apple's API, as used line by line:
//   WKNavigationDelegate  webView:decidePolicyForNavigationAction:decisionHandler:
//                         (macOS 10.10+; the handler must be called exactly once)
//   WKNavigationAction    request (NSURLRequest), targetFrame (nil: a new window
//                         is asked for), navigationType (WKNavigationType),
//                         buttonNumber (macOS 10.10+: WebKit's mask, 1 left,
//                         2 right, 4 middle, 0 none)
//   WKWebView             navigationDelegate (weak; set again below)
//   objc runtime          object_getClass, class_addMethod, class_getMethodImplementation
// Not compiled on this project's Linux machines (no clang, no macOS SDK);
// `make cross` checks the Go side without cgo.
#import <Cocoa/Cocoa.h>
#import <WebKit/WebKit.h>
#import <objc/runtime.h>
#include "_cgo_export.h"

static const char *cause_name(WKNavigationType t) {
    switch (t) {
    case WKNavigationTypeLinkActivated: return "link";
    case WKNavigationTypeFormSubmitted: return "form";
    case WKNavigationTypeBackForward: return "back-forward";
    case WKNavigationTypeReload: return "reload";
    case WKNavigationTypeFormResubmitted: return "form-resubmit";
    default: return "other";
    }
}

// The button as the lock's log counts them (1 left, 2 middle, 3 right),
// from WKNavigationAction.buttonNumber's mask (1 left, 2 right, 4 middle).
static int button_of(NSInteger mask) {
    if (mask & 1) return 1;
    if (mask & 4) return 2;
    if (mask & 2) return 3;
    return 0;
}

// The added method. self is Wails' delegate, _cmd the selector; the
// arguments are the protocol method's. Every navigation of every frame
// (links, forms, scripts, redirects, history, reloads) comes here first.
static void decide_policy(id self, SEL _cmd, WKWebView *view, WKNavigationAction *action,
                          void (^decisionHandler)(WKNavigationActionPolicy)) {
    (void)self; (void)_cmd; (void)view;
    // absoluteString of a URL WebKit made is never nil; an empty request URL is.
    NSString *uri = action.request.URL.absoluteString;
    // No target frame: the page asks for a new window (target=_blank, a
    // modifier-click); decide refuses every one. window.open() asks the UI
    // delegate instead, which Wails leaves without
    // createWebViewWithConfiguration:…, so WebKit opens nothing for it.
    int allow = navlockDecide(action.targetFrame == nil ? 1 : 0,
                              (char *)(uri ? uri.UTF8String : ""), // Go copies it before returning
                              (char *)cause_name(action.navigationType),
                              button_of(action.buttonNumber), // log only
                              0); // user gesture: WebKit has no public flag for it; log only
    decisionHandler(allow ? WKNavigationActionPolicyAllow : WKNavigationActionPolicyCancel);
}

static WKWebView *find_webview(NSView *v) {
    if ([v isKindOfClass:[WKWebView class]]) {
        return (WKWebView *)v;
    }
    for (NSView *sub in v.subviews) {
        WKWebView *found = find_webview(sub);
        if (found != nil) {
            return found;
        }
    }
    return nil;
}

static int tries; // touched on the main queue only

static void attach(void) {
    WKWebView *view = nil;
    for (NSWindow *w in [NSApp windows]) {
        view = find_webview(w.contentView);
        if (view != nil) {
            break;
        }
    }
    id<WKNavigationDelegate> delegate = view.navigationDelegate; // nil when view is nil
    if (delegate == nil) {
        if (++tries < 500) { // the window or its delegate is not set up yet: again in 10 ms
            dispatch_after(dispatch_time(DISPATCH_TIME_NOW, 10 * NSEC_PER_MSEC), dispatch_get_main_queue(), ^{
                attach();
            });
            return;
        }
        navlockAttached(0, (char *)"the app's webview was not found");
        return;
    }
    // WebKit prefers the variant with preferences when a delegate has it;
    // a delegate that had it would decide without us.
    if ([delegate respondsToSelector:@selector(webView:decidePolicyForNavigationAction:preferences:decisionHandler:)]) {
        navlockAttached(0, (char *)"the webview's delegate decides navigations itself (Wails changed)");
        return;
    }
    SEL sel = @selector(webView:decidePolicyForNavigationAction:decisionHandler:);
    Class cls = object_getClass(delegate);
    // "v@:@@@?": returns void; self, _cmd, two objects, a block. NO when the
    // class has the method already: then it must be ours (a second Lock).
    if (!class_addMethod(cls, sel, (IMP)decide_policy, "v@:@@@?") &&
        class_getMethodImplementation(cls, sel) != (IMP)decide_policy) {
        navlockAttached(0, (char *)"the webview's delegate decides navigations itself (Wails changed)");
        return;
    }
    // WebKit notes which methods its delegate has when the delegate is set:
    // set it again so the added one is seen. Wails keeps the delegate alive
    // (the property is weak), and nothing runs between these two lines.
    view.navigationDelegate = nil;
    view.navigationDelegate = delegate;
    NSString *uri = view.URL.absoluteString;
    navlockAttached(1, (char *)(uri ? uri.UTF8String : ""));
}

void navlockStart(void) {
    // AppKit and WebKit answer on the main thread only; safe from any thread.
    dispatch_async(dispatch_get_main_queue(), ^{
        attach();
    });
}
