/**
 * The names the drills' accounts use, as wrangler.toml and the deploy scripts give them: the
 * production Worker, the Worker pull requests' Previews live in and staging's (scripts/ci/preview-build.ts), and the
 * three databases (docs/operations/first-deploy.md, step 2).
 */
export const WORKER = 'akshara-labs-site'
export const PREVIEWS_WORKER = 'akshara-labs-site-previews'
export const STAGING_WORKER = 'akshara-labs-site-staging'
export const DATABASES = {
  production: 'akshara-labs-enquiries',
  previews: 'akshara-labs-enquiries-preview',
  staging: 'akshara-labs-enquiries-staging',
} as const
