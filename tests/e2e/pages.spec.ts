import type { Locator, Page } from '@playwright/test'
import { site } from '../../app/site'
import { gotoHydrated } from '../support/page'
import { PAGES, type PagePath } from '../support/routes'
import { expect, test } from '../support/shared-page'

/** The strings the spec quotes, page by page; each must be in the server-rendered HTML. A page the spec does not name has none. */
const SPEC_STRINGS: Partial<Record<PagePath, string[]>> = {
  '/': ['Innovate', 'Automate', 'Transform', 'Integration in under 30 minutes'],
  '/services': [
    'Enterprise DevOps & Cloud Automation',
    'AI & SaaS Product Development',
    'Custom & Industrial Automation',
    'AI-Powered Web Development',
    'Learn More',
  ],
  '/products': [
    'Launching Soon',
    'Explore Features',
    'Live Demo (Coming Soon)',
    'Core Features',
    'Pro/Enterprise Features',
    'E-commerce Support',
    'Virtual Receptionist for Websites',
    'Healthcare Assistant',
    'Get Early Access Updates',
  ],
  '/about': ['Innovate', 'Automate', 'Transform', String(site.foundingYear)],
  '/contact': [
    'Get In Touch',
    'Send us a message',
    'Contact Information',
    site.email,
    site.phone,
    site.location.display,
    'Follow Us',
    'Explore Our Flagship AI Product',
    `Visit ${site.product.name}`,
  ],
  '/services/devops': [
    'Enterprise DevOps & Cloud Automation',
    'Our Approach to DevOps',
    'over a decade of experience',
    'Enterprise Kubernetes & OpenShift',
    'Advanced CI/CD Pipelines',
    'Multi-Cloud & Hybrid Infrastructure',
    'Comprehensive Monitoring & Logging',
    'Infrastructure as Code',
    'Containerization with Docker',
    'Architect Your Solution',
  ],
  '/services/ai-solutions': [
    'AI & SaaS Product Development',
    'From Concept to Creation',
    'Sanskrit',
    'Bring Your AI Idea to Life',
  ],
  '/services/automation': [
    'Custom & Industrial Automation',
    'Engineering for Efficiency',
    'Custom Monitoring Dashboards',
    'Large-Scale Infrastructure Automation',
    'Business Process Automation',
    'Engineer Your Automation Solution',
  ],
  '/services/ai-web-development': [
    'AI-Powered Web Development',
    'Your Website, Reimagined',
    'AI-Enhanced UX',
    'Intelligent Conversion Rate Optimization',
    'High-Performance Scalable Architecture',
    'Integrated SEO & Content Strategy',
    'Custom AI Feature Integration',
    'Headless CMS & API-First Design',
    'Start Your Web Project',
  ],
  '/coming-soon': [
    'Coming Soon',
    "We're putting the final touches on our product website. It's going to be worth the wait!",
    'Go Back Home',
  ],
  '/privacy': ['Privacy Policy', site.email],
  '/terms': ['Terms of Service', site.email],
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  // One load per page for everything its server HTML shows without a script.
  for (const { path, section } of PAGES) {
    test(`${path} answers 200 with a complete page: the spec's text, one h1, no heading level skipped, the header marking ${section ?? 'no'} link as current`, async ({
      page,
    }) => {
      const response = await page.goto(path)
      expect(response?.status()).toBe(200)
      expect(response?.headers()['content-type']).toContain('text/html')
      await expect(page.locator('main')).toHaveCount(1)
      await expect(page.locator('h1')).toBeVisible()
      await expect(page.getByRole('banner')).toBeVisible()
      await expect(page.getByRole('contentinfo')).toBeVisible()
      expect(await page.title()).toContain(site.name)
      const canonical = await page.locator('link[rel="canonical"]').getAttribute('href')
      expect(canonical).toBe(new URL(path, `${site.url}/`).toString())
      const current = page.getByRole('navigation', { name: 'Main' }).locator('a[aria-current="page"]')
      if (section) {
        await expect(current).toHaveCount(1)
        await expect(current).toHaveText(section)
      } else {
        await expect(current).toHaveCount(0)
      }

      const main = page.getByRole('main')
      for (const text of SPEC_STRINGS[path] ?? []) {
        await expect(main, text).toContainText(text)
      }
      await expect(page.locator('h1')).toHaveCount(1)
      const levels = await main
        .locator('h1, h2, h3, h4, h5, h6')
        .evaluateAll((hs) => hs.map((h) => Number(h.tagName.slice(1))))
      expect(levels[0]).toBe(1)
      expect(levels.filter((l) => l === 1)).toHaveLength(1)
      for (let i = 1; i < levels.length; i++) {
        expect((levels[i] ?? 0) - (levels[i - 1] ?? 0), `h${levels[i - 1]} then h${levels[i]}`).toBeLessThan(2)
      }
    })
  }

  test('Explore Features jumps to the feature matrix with no script', async ({ page }) => {
    await page.goto('/products')
    const explore = page.getByRole('link', { name: 'Explore Features' })
    const target = (await explore.getAttribute('href')) ?? ''
    expect(target).toMatch(/^#[\w-]+$/)
    await explore.click()
    await expect(page).toHaveURL(new RegExp(`${target}$`))
    await expect(page.locator(target).getByRole('heading', { name: 'Core Features' })).toBeInViewport()
  })
})

test.describe('links go where they say', () => {
  async function follows(page: Page, from: string, link: Locator, to: string) {
    await gotoHydrated(page, from)
    await expect(link).toHaveAttribute('href', to)
    await link.click()
    await expect(page).toHaveURL(to)
    await expect(page.locator('h1')).toHaveCount(1)
  }

  test('home: hero buttons, core service cards and the voice-assistant promotion', async ({ page }) => {
    test.slow() // several page loads in one test
    const main = page.getByRole('main')
    await follows(page, '/', main.getByRole('link', { name: 'Explore Our Services' }), '/services')
    await follows(page, '/', main.getByRole('link', { name: 'See Our Products' }), '/products')
    const cards = page.getByRole('region', { name: 'Core services' })
    for (const [name, path] of [
      ['Enterprise DevOps & Cloud Automation', '/services/devops'],
      ['AI & SaaS Product Development', '/services/ai-solutions'],
      ['Custom & Industrial Automation', '/services/automation'],
    ] as const) {
      await follows(page, '/', cards.getByRole('link', { name }), path)
      await expect(page.locator('h1')).toHaveText(name)
    }
    await follows(page, '/', main.getByRole('link', { name: `Discover ${site.product.name}` }), '/coming-soon')
  })

  test('services: each Learn More link names its service and opens its page', async ({ page }) => {
    test.slow() // several page loads in one test
    for (const [name, path] of [
      ['Enterprise DevOps & Cloud Automation', '/services/devops'],
      ['AI & SaaS Product Development', '/services/ai-solutions'],
      ['Custom & Industrial Automation', '/services/automation'],
      ['AI-Powered Web Development', '/services/ai-web-development'],
    ] as const) {
      const link = page.getByRole('link', { name: `Learn More about ${name}` })
      await follows(page, '/services', link, path)
      await expect(page.locator('h1')).toHaveText(name)
    }
    await gotoHydrated(page, '/services')
    for (const link of await page.getByRole('link', { name: /^Learn More/ }).all()) {
      await expect(link).toBeVisible()
      await expect(link).toContainText('Learn More')
    }
  })

  test('service pages: the call to action opens the contact form with the matching subject', async ({ page }) => {
    test.slow() // several page loads in one test
    for (const [from, name, to] of [
      ['/services/devops', 'Architect Your Solution', '/contact?subject=devops'],
      ['/services/ai-solutions', 'Bring Your AI Idea to Life', '/contact'],
      ['/services/automation', 'Engineer Your Automation Solution', '/contact?subject=automation'],
      ['/services/ai-web-development', 'Start Your Web Project', '/contact?subject=website'],
    ] as const) {
      await follows(page, from, page.getByRole('main').getByRole('link', { name }), to)
      await expect(page.locator('h1')).toHaveText('Get In Touch')
    }
  })

  test('service pages lead back to all services', async ({ page }) => {
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' })
    await follows(page, '/services/automation', breadcrumb.getByRole('link', { name: 'Services' }), '/services')
  })

  test('products: Explore Features scrolls to the feature matrix; Live Demo is disabled and says why', async ({
    page,
  }) => {
    await gotoHydrated(page, '/products')
    const explore = page.getByRole('link', { name: 'Explore Features' })
    const target = (await explore.getAttribute('href')) ?? ''
    expect(target).toMatch(/^#[\w-]+$/)
    const matrix = page.locator(target)
    await expect(matrix).toHaveCount(1)
    await expect(matrix.getByRole('region', { name: 'Core Features' })).not.toBeInViewport()
    await explore.click()
    await expect(page).toHaveURL(new RegExp(`/products${target}$`))
    await expect(matrix.getByRole('heading', { name: 'Core Features' })).toBeInViewport()

    const demo = page.getByRole('button', { name: 'Live Demo (Coming Soon)' })
    await expect(demo).toBeDisabled()
    await expect(demo).toHaveAccessibleDescription('The live demo opens at launch.')
    await expect(page.getByText('The live demo opens at launch.')).toBeVisible()
  })

  test('products: Get Early Access Updates opens the contact form about the voice assistant', async ({ page }) => {
    await follows(
      page,
      '/products',
      page.getByRole('link', { name: 'Get Early Access Updates' }),
      '/contact?subject=voice-ai',
    )
  })

  test('contact: e-mail, phone, social profiles and the product promotion', async ({ page }) => {
    await gotoHydrated(page, '/contact')
    const info = page.getByRole('region', { name: 'Contact Information' })
    await expect(info.getByRole('listitem')).toHaveCount(3)
    await expect(info.getByRole('link', { name: site.email })).toHaveAttribute('href', `mailto:${site.email}`)
    await expect(info.getByRole('link', { name: site.phone })).toHaveAttribute('href', `tel:${site.phoneE164}`)
    await expect(info).toContainText(site.location.display)

    const follow = page.getByRole('region', { name: 'Follow Us' })
    await expect(follow.getByRole('link')).toHaveCount(4)
    for (const [name, href] of [
      ['Twitter', site.social.twitter],
      ['Facebook', site.social.facebook],
      ['LinkedIn', site.social.linkedin],
      ['GitHub', site.social.github],
    ] as const) {
      await expect(follow.getByRole('link', { name: new RegExp(name) })).toHaveAttribute('href', href)
    }

    const promo = page.getByRole('region', { name: 'Explore Our Flagship AI Product' })
    await follows(page, '/contact', promo.getByRole('link', { name: `Visit ${site.product.name}` }), '/coming-soon')
  })

  test('coming soon: Go Back Home goes home', async ({ page }) => {
    await follows(page, '/coming-soon', page.getByRole('main').getByRole('link', { name: 'Go Back Home' }), '/')
  })
})

test.describe('layout', () => {
  // One load per page: the targets' sizes at a phone's width, then the width across four screens.
  for (const { path } of PAGES) {
    test(`${path}: buttons and links in page content are at least 44 px tall on small screens; it never scrolls sideways at 360, 768, 1280 or 1920 px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: 360, height: 800 })
      await page.goto(path)
      // Links inside running text are exempt (WCAG 2.5.8 inline exception).
      const small = await page
        .getByRole('main')
        .locator('a, button')
        .evaluateAll((els) =>
          els
            .filter((el) => {
              const paragraph = el.closest('p')
              return !paragraph || paragraph.textContent?.trim() === el.textContent?.trim()
            })
            .filter((el) => el.getBoundingClientRect().height > 0 && el.getBoundingClientRect().height < 44)
            .map(
              (el) =>
                `${el.textContent?.trim() || el.getAttribute('aria-label')} (${el.getBoundingClientRect().height}px)`,
            ),
        )
      expect(small).toEqual([])
      for (const width of [360, 768, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 })
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        expect(overflow, `${width} px`).toBeLessThanOrEqual(0)
      }
    })
  }

  test('services alternate the illustration side on wide screens and stack on small ones', async ({ page }) => {
    const sides = async () => {
      const blocks = await page.getByRole('main').getByRole('article').all()
      const result: string[] = []
      for (const block of blocks) {
        const image = await block.getByRole('img').boundingBox()
        const heading = await block.getByRole('heading', { level: 2 }).boundingBox()
        if (!image || !heading) throw new Error('a service block has no illustration or heading')
        if (image.y + image.height <= heading.y) result.push('above')
        else result.push(image.x < heading.x ? 'left' : 'right')
      }
      return result
    }
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/services')
    expect(await sides()).toEqual(['left', 'right', 'left', 'right'])
    // The same page turned to a phone's width: the layout follows the width.
    await page.setViewportSize({ width: 375, height: 800 })
    expect(await sides()).toEqual(['above', 'above', 'above', 'above'])
  })
})
