import { useEffect, useState } from "react";
import { LogoMark } from "../../components/logo";
import { api } from "../../lib/api-client";
import type { LoginPageSettings, LogoSettings } from "../../lib/wasm";

/** The sign-in page's logo as Login Page Settings lay it out (spec 03 §3 LoginPageSettings): the
 * clinic's uploaded logo (else the portal mark) at LayoutLoginLogoWidth, LayoutLoginLogoWidthMobile
 * on narrow screens, the four paddings and the title. */
export function LoginBrand() {
  const [layout, setLayout] = useState<LoginPageSettings | null>(null);
  const [logo, setLogo] = useState<LogoSettings | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    void api
      .get<LoginPageSettings>("/api/accountApi/loginPageSettings", { signal: abort.signal, report: false })
      .then(setLayout)
      .catch(() => undefined);
    void api
      .get<LogoSettings>("/api/logoSettings/login", { signal: abort.signal, report: false })
      .then(setLogo)
      .catch(() => undefined);
    return () => abort.abort();
  }, []);
  const px = (n: number | null | undefined) => (typeof n === "number" && Number.isFinite(n) && n >= 0 ? `${n}px` : undefined);
  const style = {
    paddingLeft: px(layout?.LayoutLoginLogoLeftPadding),
    paddingTop: px(layout?.LayoutLoginLogoTopPadding),
    paddingRight: px(layout?.LayoutLoginLogoRightPadding),
    paddingBottom: px(layout?.LayoutLoginLogoBottomPadding),
    "--login-logo-width": px(layout?.LayoutLoginLogoWidth),
    "--login-logo-width-mobile": px(layout?.LayoutLoginLogoWidthMobile),
  } as React.CSSProperties;
  const title = layout?.LayoutLoginLogoTitle?.trim();
  return (
    <div className="login-brand login-brand-configured" style={style} data-testid="login-brand">
      {logo?.LogoUrl ? <img className="login-logo" src={logo.LogoUrl} alt="" /> : <LogoMark />}
      {title ? (
        <span className="login-logo-title">{title}</span>
      ) : (
        <span>
          Imaging <strong>Portal</strong>
        </span>
      )}
    </div>
  );
}
